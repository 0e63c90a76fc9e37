"use server";

import { redirect } from "next/navigation";

import type { AcceptState } from "@/components/members/accept-membership-form";
import type { NewPasswordState } from "@/components/new-password-form";
import { defaultCtx } from "@/lib/context";
import { ApiError } from "@/lib/errors";
import { logger } from "@/lib/log/logger";
import { acceptInvitation } from "@/lib/members/accept-invitation";
import { acceptMembership } from "@/lib/members/accept-membership";

// Public by design: the signed token in the link is the caller's proof, checked by acceptInvitation.
export async function acceptInvitationAction(
  token: string,
  _previous: NewPasswordState,
  form: FormData,
): Promise<NewPasswordState> {
  let email: string;
  try {
    ({ email } = await acceptInvitation(defaultCtx(), { token, password: String(form.get("password") ?? "") }));
  } catch (error) {
    if (error instanceof ApiError) return { error: error.message, field: error.param };
    logger().error({ err: error }, "accepting an invitation failed");
    return { error: "Something went wrong on our side; try again." };
  }
  redirect(`/signin?setup=done&email=${encodeURIComponent(email)}`);
}

// The same proof for someone who already has an account: a button on the page, never the link's GET (mail scanners open links).
export async function acceptMembershipAction(token: string, _previous: AcceptState): Promise<AcceptState> {
  try {
    await acceptMembership(defaultCtx(), token);
  } catch (error) {
    if (error instanceof ApiError) return { error: error.message };
    logger().error({ err: error }, "accepting a membership failed");
    return { error: "Something went wrong on our side; try again." };
  }
  redirect("/");
}

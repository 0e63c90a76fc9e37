"use server";

import { redirect } from "next/navigation";

import type { NewPasswordState } from "@/components/new-password-form";
import { defaultCtx } from "@/lib/context";
import { ApiError } from "@/lib/errors";
import { logger } from "@/lib/log/logger";
import { resetPassword } from "@/lib/users/reset-password";

// Public by design: the signed token in the link is the caller's proof, checked by resetPassword (once, within its hour).
export async function resetPasswordAction(
  token: string,
  _previous: NewPasswordState,
  form: FormData,
): Promise<NewPasswordState> {
  const password = form.get("password");
  let email: string;
  try {
    ({ email } = await resetPassword(defaultCtx(), {
      token: String(token),
      password: typeof password === "string" ? password : "",
    }));
  } catch (error) {
    if (error instanceof ApiError)
      return {
        error: error.param === "password" ? "Choose a password of at least 8 characters." : error.message,
        field: error.param,
      };
    logger().error({ err: error }, "resetting a password failed");
    return { error: "Something went wrong on our side; try again." };
  }
  redirect(`/signin?reset=done&email=${encodeURIComponent(email)}`);
}

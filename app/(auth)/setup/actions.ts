"use server";

import { redirect } from "next/navigation";

import type { SetupState } from "@/components/setup-form";
import { normalizeEmail } from "@/lib/contacts/email-address";
import { defaultCtx } from "@/lib/context";
import { ApiError } from "@/lib/errors";
import { createFirstOwner } from "@/lib/users/create-first-owner";

export async function createFirstOwnerAction(_previous: SetupState, form: FormData): Promise<SetupState> {
  const email = String(form.get("email") ?? "");
  try {
    await createFirstOwner(defaultCtx(), {
      email,
      password: String(form.get("password") ?? ""),
      workspaceName: String(form.get("workspaceName") ?? ""),
      // Checked by the schema: anything but usd, eur or gbp is refused next to the field.
      currency: String(form.get("currency") ?? "usd") as "usd",
    });
  } catch (error) {
    if (error instanceof ApiError) return { error: error.message, field: error.param };
    throw error;
  }
  // The sign-in form is filled in with the address just chosen: nobody types it twice.
  redirect(`/signin?setup=done&email=${encodeURIComponent(normalizeEmail(email))}`);
}

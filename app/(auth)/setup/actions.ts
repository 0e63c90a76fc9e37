"use server";

import { redirect } from "next/navigation";
import { defaultCtx } from "@/lib/context";
import { ApiError } from "@/lib/errors";
import type { SetupState } from "@/components/setup-form";
import { createFirstOwner } from "@/lib/users/create-first-owner";

export async function createFirstOwnerAction(_previous: SetupState, form: FormData): Promise<SetupState> {
  try {
    await createFirstOwner(defaultCtx(), {
      email: String(form.get("email") ?? ""),
      password: String(form.get("password") ?? ""),
      workspaceName: String(form.get("workspaceName") ?? ""),
      // Checked by the schema: anything but usd, eur or gbp is refused next to the field.
      currency: String(form.get("currency") ?? "usd") as "usd",
    });
  } catch (error) {
    if (error instanceof ApiError) return { error: error.message, field: error.param };
    throw error;
  }
  redirect("/signin?setup=done");
}

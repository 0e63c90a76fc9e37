"use server";

import { redirect } from "next/navigation";

import { requestNewConfirmation } from "@/lib/consent/request-new-confirmation";
import { defaultCtx } from "@/lib/context";

export async function signUpAgainAction(token: string): Promise<void> {
  await requestNewConfirmation(defaultCtx(), token);
  redirect(`/confirm/${token}?resent=1`);
}

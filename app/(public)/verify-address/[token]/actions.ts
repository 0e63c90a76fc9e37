"use server";

import { redirect } from "next/navigation";

import { defaultCtx } from "@/lib/context";
import { confirmVerifiedAddress } from "@/lib/sandbox/verified-addresses";

export async function confirmAddressAction(token: string): Promise<void> {
  const confirmed = await confirmVerifiedAddress(defaultCtx(), token);
  redirect(`/verify-address/${token}?done=${confirmed ? "1" : "0"}`);
}

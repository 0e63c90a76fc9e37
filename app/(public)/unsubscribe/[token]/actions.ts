"use server";

import { redirect } from "next/navigation";

import { readUnsubscribeToken } from "@/lib/consent/links";
import { resubscribe } from "@/lib/consent/resubscribe";
import { unsubscribe } from "@/lib/consent/unsubscribe";
import { defaultCtx } from "@/lib/context";

export async function unsubscribeAction(token: string): Promise<void> {
  const target = readUnsubscribeToken(token);
  if (target) await unsubscribe(defaultCtx(), { ...target, scope: "topic" });
  redirect(`/unsubscribe/${token}?done=unsubscribed`);
}

export async function resubscribeAction(token: string): Promise<void> {
  const target = readUnsubscribeToken(token);
  if (target) await resubscribe(defaultCtx(), { contactId: target.contactId, topicId: target.topicId });
  redirect(`/unsubscribe/${token}?done=resubscribed`);
}

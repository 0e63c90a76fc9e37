"use server";

import { redirect } from "next/navigation";

import { readPreferencesToken } from "@/lib/consent/links";
import { savePreferences } from "@/lib/consent/preferences";
import { unsubscribe } from "@/lib/consent/unsubscribe";
import { defaultCtx } from "@/lib/context";

export async function savePreferencesAction(token: string, form: FormData): Promise<void> {
  const link = readPreferencesToken(token);
  if (!link) redirect(`/preferences/${token}`);
  const intent = form.get("intent");
  const ctx = defaultCtx();
  if (intent === "leave-brand") await unsubscribe(ctx, { ...link, scope: "brand" });
  else if (intent === "leave-all") await unsubscribe(ctx, { ...link, scope: "all" });
  else await savePreferences(ctx, link, form.getAll("topic").map(String));
  redirect(`/preferences/${token}?saved=1`);
}

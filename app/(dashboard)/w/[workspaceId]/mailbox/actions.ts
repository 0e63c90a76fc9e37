"use server";

import { notFound, redirect } from "next/navigation";
import { userActor } from "@/lib/actor";
import { requireUser } from "@/lib/auth/current-user";
import { defaultCtx } from "@/lib/context";
import type { DeliveryOutcome } from "@/lib/deliverability/apply-delivery-outcome";
import { mailboxEnabled } from "@/lib/mail/mailbox-enabled";
import { simulateOutcome } from "@/lib/mail/simulate-outcome";
import { requireMembership } from "@/lib/workspaces/require-membership";

const OUTCOMES: Record<string, DeliveryOutcome> = {
  delivered: { type: "delivered" },
  "bounce-permanent": { type: "bounced", bounceType: "permanent" },
  "bounce-transient": { type: "bounced", bounceType: "transient" },
  complained: { type: "complained" },
};

export async function simulateOutcomeAction(workspaceId: string, messageId: string, form: FormData): Promise<void> {
  // A server action is callable by id even when its page is gone: it checks for itself.
  if (!mailboxEnabled()) notFound();
  const user = await requireUser();
  const ctx = defaultCtx();
  await requireMembership(ctx, user.id, workspaceId, notFound);
  const outcome = OUTCOMES[String(form.get("outcome"))];
  if (outcome) await simulateOutcome(ctx, userActor(user.id, workspaceId), messageId, outcome);
  redirect(`/w/${workspaceId}/mailbox?reported=${encodeURIComponent(String(form.get("outcome")))}`);
}

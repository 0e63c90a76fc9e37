"use server";

import { notFound, redirect } from "next/navigation";

import { findWorkspaceSession } from "@/lib/dashboard/workspace-session";
import type { DeliveryOutcome } from "@/lib/deliverability/apply-delivery-outcome";
import { ApiError } from "@/lib/errors";
import { mailboxEnabled } from "@/lib/mail/mailbox-enabled";
import { simulateOutcome } from "@/lib/mail/simulate-outcome";

const OUTCOMES: Record<string, DeliveryOutcome> = {
  delivered: { type: "delivered" },
  "bounce-permanent": { type: "bounced", bounceType: "permanent" },
  "bounce-transient": { type: "bounced", bounceType: "transient" },
  complained: { type: "complained" },
};

export async function simulateOutcomeAction(workspaceId: string, messageId: string, form: FormData): Promise<void> {
  // A server action is callable by id even when its page is gone: it checks for itself.
  if (!mailboxEnabled()) notFound();
  const session = await findWorkspaceSession(workspaceId);
  if (!session) notFound();
  const outcome = OUTCOMES[String(form.get("outcome"))];
  if (outcome) {
    try {
      await simulateOutcome(session.ctx, session.actor, messageId, outcome);
    } catch (error) {
      // A read-only or deleted workspace reports nothing (the rule is simulateOutcome's); the page says why.
      if (error instanceof ApiError && error.code === "team_inactive")
        redirect(`/w/${workspaceId}/mailbox?refused=inactive`);
      throw error;
    }
  }
  redirect(`/w/${workspaceId}/mailbox?reported=${encodeURIComponent(String(form.get("outcome")))}`);
}

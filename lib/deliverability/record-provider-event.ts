import "server-only";

import { eq } from "drizzle-orm";

import { systemActor } from "@/lib/actor";
import { isAutomationSendId, recordAutomationProviderEvent } from "@/lib/automations/automation-mail-events";
import { withTransaction, type Ctx } from "@/lib/context";
import { campaigns, sends } from "@/lib/db/schema";
import { emailEventBase } from "@/lib/events/email-event-base";

import { applyDeliveryOutcome, type DeliveryOutcome } from "./apply-delivery-outcome";
import { countHardBounce, guardCampaign } from "./guard-campaign";
import { recordDeliveryEvent } from "./record-delivery-event";

export type ProviderEvent = DeliveryOutcome & {
  /** Our send id (from a signed return path or a signed Message-ID), or the provider's own id for the message. */
  sendId?: string;
  /** The provider's id (Resend's). Never a Message-ID a report quotes (`<…>`): that is no key as it stands. */
  providerMessageId?: string;
  /** Provider's wording, not for parsing. */
  reason?: string;
  complaintType?: string;
  /** An enhanced status code (RFC 3463), e.g. 5.1.1. */
  statusCode?: string;
  /** When it happened at the provider. */
  occurredAt: Date;
  /** Mail that is not a campaign send: applied by address (the local mailbox's other messages). */
  address?: { workspaceId: string; email: string };
  /**
   * The recipient a bounce mail names (Final-Recipient, Original-Rcpt-To), set when the report was
   * matched by the signed Message-ID it quotes rather than by the signed return path: it then applies
   * only to a send to that address (mail forwarded on, reported by someone else, suppresses no one).
   * A report that redacts the recipient leaves it unset.
   */
  recipient?: string;
};

/**
 * A provider's report about one campaign send: stamps the send (each outcome
 * once), applies it to the audience (suppressions, contact status) and
 * records the matching email.* event. Returns false when no send matches
 * (mail that is not campaign mail, such as confirmations).
 */
export async function recordProviderEvent(
  ctx: Ctx,
  event: ProviderEvent,
  evidenceEventId: string | null = null,
): Promise<{ matched: boolean; suppressed: boolean; workspaceId?: string }> {
  return withTransaction(ctx, async (tx) => {
    // A Message-ID quoted by a bounce mail (`<…>`) is no key: anyone can write one. readBounceMail turns a signed one into its
    // send id; reports stored before Message-IDs were signed carry the old, guessable form and match nothing.
    const byProviderId =
      event.providerMessageId && !event.providerMessageId.startsWith("<") ? event.providerMessageId : undefined;
    const key = event.sendId
      ? eq(sends.id, event.sendId)
      : byProviderId
        ? eq(sends.providerMessageId, byProviderId)
        : undefined;
    if (!key) return { matched: false, suppressed: false };
    // An automation's mail has its own rows (automation_sends): its send id says so; a provider's id is looked for there when no campaign send has it.
    if (event.sendId && isAutomationSendId(event.sendId))
      return (
        (await recordAutomationProviderEvent(tx, event, { sendId: event.sendId }, evidenceEventId)) ?? {
          matched: false,
          suppressed: false,
        }
      );
    const [row] = await tx.db
      .select({ send: sends, campaignName: campaigns.name, campaignStatus: campaigns.status })
      .from(sends)
      .innerJoin(campaigns, eq(campaigns.id, sends.campaignId))
      .where(key)
      .for("update", { of: sends });
    if (!row && byProviderId && !event.sendId)
      return (
        (await recordAutomationProviderEvent(tx, event, { providerMessageId: byProviderId }, evidenceEventId)) ?? {
          matched: false,
          suppressed: false,
        }
      );
    if (!row) return { matched: false, suppressed: false };
    const { send } = row;
    if (event.recipient !== undefined && event.recipient.toLowerCase() !== send.email)
      return { matched: false, suppressed: false };
    const stamp =
      event.type === "delivered"
        ? send.deliveredAt
          ? null
          : { deliveredAt: event.occurredAt }
        : event.type === "complained"
          ? send.complainedAt
            ? null
            : { complainedAt: event.occurredAt }
          : // A send's bounce is recorded once; only a permanent one supersedes a weaker one reported before.
            send.bouncedAt && (send.bounceType === "permanent" || event.bounceType !== "permanent")
            ? null
            : { bouncedAt: event.occurredAt, bounceType: event.bounceType };
    if (!stamp) return { matched: true, suppressed: false, workspaceId: send.workspaceId }; // reported before: nothing new
    await tx.db
      .update(sends)
      .set({ ...stamp, updatedAt: tx.clock.now() })
      .where(eq(sends.id, send.id));
    const { suppressed } = await applyDeliveryOutcome(tx, send.workspaceId, send.email, event, evidenceEventId);
    // Harm is judged where it shows: the guardrail may pause the campaign in this transaction.
    const hardBounce = event.type === "bounced" && event.bounceType === "permanent";
    if (hardBounce) await countHardBounce(tx, send);
    if ((hardBounce || event.type === "complained") && row.campaignStatus === "sending")
      await guardCampaign(tx, send.campaignId);
    const base = emailEventBase(send, row.campaignName, event.occurredAt);
    const actor = systemActor("provider-event", send.workspaceId);
    await recordDeliveryEvent(tx, actor, event, base, suppressed);
    return { matched: true, suppressed, workspaceId: send.workspaceId };
  });
}

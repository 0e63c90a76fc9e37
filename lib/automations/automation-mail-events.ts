import "server-only";

import { eq } from "drizzle-orm";

import { systemActor } from "@/lib/actor";
import { withTransaction, type Ctx } from "@/lib/context";
import { automationEntries, automationSends, contacts } from "@/lib/db/schema";
import { applyDeliveryOutcome } from "@/lib/deliverability/apply-delivery-outcome";
import { recordDeliveryEvent } from "@/lib/deliverability/record-delivery-event";
import type { ProviderEvent } from "@/lib/deliverability/record-provider-event";
import { recordEvent } from "@/lib/events/record-event";
import type { DeviceType } from "@/lib/tracking/describe-client";
import { machineClick, machineOpen, type TrackingRequest } from "@/lib/tracking/machine-engagement";
import { markEngaged } from "@/lib/tracking/mark-engaged";

// An automation's mail as the email.* events and tracking see it (docs/readings.md, "Automations",
// "The run"): the same events as a campaign recipient's, with `campaign_id` and `campaign_name` null
// and the automation and step number added.

/** The send id of an entry's send step: fixed before the mail leaves, so its tracking links name the row recorded after. */
export const automationSendId = (entryId: string, stepIndex: number) =>
  `asn_${entryId.replace(/^aen_/, "")}_${stepIndex}`;

/** Whether a tracking token's send id is an automation mail's rather than a campaign recipient's. */
export const isAutomationSendId = (sendId: string) => sendId.startsWith("asn_");

export function automationEmailEventBase(
  mail: { sendId: string; automationId: string; stepIndex: number; contactId: string | null; email: string },
  occurredAt: Date,
) {
  return {
    send_id: mail.sendId,
    campaign_id: null,
    campaign_name: null,
    contact_id: mail.contactId,
    email: mail.email,
    occurred_at: occurredAt.toISOString(),
    automation_id: mail.automationId,
    step: mail.stepIndex,
  };
}

async function loadMail(ctx: Ctx, sendId: string) {
  const [row] = await ctx.db
    .select({ send: automationSends, contactId: automationEntries.contactId, email: contacts.email })
    .from(automationSends)
    .innerJoin(automationEntries, eq(automationEntries.id, automationSends.entryId))
    .leftJoin(contacts, eq(contacts.id, automationEntries.contactId))
    .where(eq(automationSends.id, sendId));
  // An erased contact's mail records nothing more about them.
  return row && row.send.status === "sent" && row.email && row.contactId
    ? { ...row, email: row.email, contactId: row.contactId }
    : null;
}

const baseOf = (
  row: { send: typeof automationSends.$inferSelect; contactId: string | null; email: string },
  at: Date,
) =>
  automationEmailEventBase(
    {
      sendId: row.send.id,
      automationId: row.send.automationId,
      stepIndex: row.send.stepIndex,
      contactId: row.contactId,
      email: row.email,
    },
    at,
  );

/**
 * The pixel of an automation's mail loaded: as a campaign's (recordOpen), the person's open kept apart
 * from a machine's, and only the person's makes the contact engaged.
 */
export async function recordAutomationOpen(
  ctx: Ctx,
  sendId: string,
  details: { country: string | null; request?: TrackingRequest },
): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    const row = await loadMail(tx, sendId);
    if (!row) return;
    const now = tx.clock.now();
    const machine = details.request ? machineOpen(details.request) : null;
    await tx.db
      .update(automationSends)
      .set({
        openedAt: row.send.openedAt ?? now,
        humanOpenedAt: machine ? row.send.humanOpenedAt : (row.send.humanOpenedAt ?? now),
      })
      .where(eq(automationSends.id, sendId));
    // A person's open of an automation's mail is their engagement as a campaign's is (the sunset).
    if (!machine) await markEngaged(tx, { contactId: row.contactId, workspaceId: row.send.workspaceId }, now);
    await recordEvent(
      tx,
      systemActor("tracking:open", row.send.workspaceId),
      "email.opened",
      { ...baseOf(row, now), country: details.country },
      now,
      machine,
    );
  });
}

/**
 * A tracked link of an automation's mail followed: as a campaign's (recordClick); a person's click is an
 * open too, and makes the contact engaged.
 */
export async function recordAutomationClick(
  ctx: Ctx,
  sendId: string,
  details: {
    url: string;
    country: string | null;
    deviceType: DeviceType | null;
    client: string | null;
    request?: TrackingRequest;
  },
): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    const row = await loadMail(tx, sendId);
    if (!row) return;
    const now = tx.clock.now();
    const machine = details.request ? machineClick(details.request, { sentAt: row.send.sentAt, now }) : null;
    await tx.db
      .update(automationSends)
      .set({
        clickedAt: row.send.clickedAt ?? now,
        humanClickedAt: machine ? row.send.humanClickedAt : (row.send.humanClickedAt ?? now),
        humanOpenedAt: machine ? row.send.humanOpenedAt : (row.send.humanOpenedAt ?? now),
      })
      .where(eq(automationSends.id, sendId));
    if (!machine) await markEngaged(tx, { contactId: row.contactId, workspaceId: row.send.workspaceId }, now);
    await recordEvent(
      tx,
      systemActor("tracking:click", row.send.workspaceId),
      "email.clicked",
      {
        ...baseOf(row, now),
        url: details.url,
        country: details.country,
        device_type: details.deviceType,
        client: details.client,
      },
      now,
      machine,
    );
  });
}

/**
 * A provider's report about an automation's mail (recordProviderEvent hands over what it does not find
 * among campaign sends): found by the send id its signed return path or Message-ID carries, or by the
 * provider's id; each outcome stamped once, applied to the audience as a campaign recipient's is
 * (suppressions, contact status), and recorded as its email.* event. Null when no automation mail matches.
 */
export async function recordAutomationProviderEvent(
  ctx: Ctx,
  event: ProviderEvent,
  key: { sendId: string } | { providerMessageId: string },
  evidenceEventId: string | null,
): Promise<{ matched: true; suppressed: boolean; workspaceId: string } | null> {
  return withTransaction(ctx, async (tx) => {
    const [row] = await tx.db
      .select({ send: automationSends, contactId: automationEntries.contactId, email: contacts.email })
      .from(automationSends)
      .innerJoin(automationEntries, eq(automationEntries.id, automationSends.entryId))
      .leftJoin(contacts, eq(contacts.id, automationEntries.contactId))
      .where(
        "sendId" in key
          ? eq(automationSends.id, key.sendId)
          : eq(automationSends.providerMessageId, key.providerMessageId),
      )
      .for("update", { of: automationSends });
    if (!row || row.send.status !== "sent" || !row.email) return null;
    const { send } = row;
    if (event.recipient !== undefined && event.recipient.toLowerCase() !== row.email) return null;
    const stamp =
      event.type === "delivered"
        ? send.deliveredAt
          ? null
          : { deliveredAt: event.occurredAt }
        : event.type === "complained"
          ? send.complainedAt
            ? null
            : { complainedAt: event.occurredAt }
          : send.bouncedAt && (send.bounceType === "permanent" || event.bounceType !== "permanent")
            ? null
            : { bouncedAt: event.occurredAt, bounceType: event.bounceType };
    if (!stamp) return { matched: true, suppressed: false, workspaceId: send.workspaceId };
    await tx.db.update(automationSends).set(stamp).where(eq(automationSends.id, send.id));
    const { suppressed } = await applyDeliveryOutcome(tx, send.workspaceId, row.email, event, evidenceEventId);
    const base = baseOf({ ...row, email: row.email }, event.occurredAt);
    const actor = systemActor("provider-event", send.workspaceId);
    await recordDeliveryEvent(tx, actor, event, base, suppressed);
    return { matched: true, suppressed, workspaceId: send.workspaceId };
  });
}

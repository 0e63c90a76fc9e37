import "server-only";

import { eq } from "drizzle-orm";

import { systemActor } from "@/lib/actor";
import {
  isAutomationSendId,
  recordAutomationClick,
  recordAutomationOpen,
} from "@/lib/automations/automation-mail-events";
import { enterLinkClicked } from "@/lib/automations/trigger-matching";
import { withTransaction, type Ctx } from "@/lib/context";
import { campaigns, sends } from "@/lib/db/schema";
import { emailEventBase } from "@/lib/events/email-event-base";
import { recordEvent } from "@/lib/events/record-event";

import type { DeviceType } from "./describe-client";
import { machineClick, machineOpen, type TrackingRequest } from "./machine-engagement";
import { markEngaged } from "./mark-engaged";

// Without `request` (the admin CLI, fixtures) an open or click is taken as the person's.

async function loadSend(ctx: Ctx, sendId: string) {
  const [row] = await ctx.db
    .select({ send: sends, campaignName: campaigns.name })
    .from(sends)
    .innerJoin(campaigns, eq(campaigns.id, sends.campaignId))
    .where(eq(sends.id, sendId));
  return row ?? null;
}

function base(row: NonNullable<Awaited<ReturnType<typeof loadSend>>>, at: Date) {
  return emailEventBase(row.send, row.campaignName, at);
}

/**
 * The pixel loaded: weak evidence only (image proxies and prefetching load it too). Recorded and
 * counted whoever loaded it; only a person's open (machineOpen) makes the contact engaged.
 */
export async function recordOpen(
  ctx: Ctx,
  sendId: string,
  details: { country: string | null; request?: TrackingRequest },
): Promise<void> {
  // An automation's mail has its own row (automation_sends), found by its id's prefix.
  if (isAutomationSendId(sendId)) return recordAutomationOpen(ctx, sendId, details);
  await withTransaction(ctx, async (tx) => {
    const row = await loadSend(tx, sendId);
    if (!row) return;
    const now = tx.clock.now();
    const machine = details.request ? machineOpen(details.request) : null;
    if (!row.send.openedAt || (!machine && !row.send.humanOpenedAt))
      await tx.db
        .update(sends)
        .set({
          openedAt: row.send.openedAt ?? now,
          humanOpenedAt: machine ? row.send.humanOpenedAt : (row.send.humanOpenedAt ?? now),
        })
        .where(eq(sends.id, sendId));
    if (!machine) await markEngaged(tx, row.send, now);
    await recordEvent(
      tx,
      systemActor("tracking:open", row.send.workspaceId),
      "email.opened",
      { ...base(row, now), country: details.country },
      now,
      machine,
    );
  });
}

/** A tracked link was followed. Recorded and counted whoever followed it; only a person's click makes the contact engaged. */
export async function recordClick(
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
  if (isAutomationSendId(sendId)) return recordAutomationClick(ctx, sendId, details);
  await withTransaction(ctx, async (tx) => {
    const row = await loadSend(tx, sendId);
    if (!row) return;
    const now = tx.clock.now();
    const machine = details.request ? machineClick(details.request, { sentAt: row.send.acceptedAt, now }) : null;
    // A person who followed a link opened the mail, whether or not its pixel loaded.
    if (!row.send.clickedAt || (!machine && !row.send.humanOpenedAt))
      await tx.db
        .update(sends)
        .set({
          clickedAt: row.send.clickedAt ?? now,
          humanOpenedAt: machine ? row.send.humanOpenedAt : (row.send.humanOpenedAt ?? now),
        })
        .where(eq(sends.id, sendId));
    if (!machine) {
      await markEngaged(tx, row.send, now);
      // A scanner's click is not the person's interest: only a person's starts link_clicked automations.
      await enterLinkClicked(tx, row.send.workspaceId, row.send.contactId, row.send.campaignId, details.url);
    }
    await recordEvent(
      tx,
      systemActor("tracking:click", row.send.workspaceId),
      "email.clicked",
      {
        ...base(row, now),
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

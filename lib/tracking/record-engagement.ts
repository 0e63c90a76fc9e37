import "server-only";

import { eq } from "drizzle-orm";

import { systemActor } from "@/lib/actor";
import { withTransaction, type Ctx } from "@/lib/context";
import { campaigns, sends } from "@/lib/db/schema";
import { emailEventBase } from "@/lib/events/email-event-base";
import { recordEvent } from "@/lib/events/record-event";

import type { DeviceType } from "./describe-client";

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

/** The pixel loaded: weak evidence only (image proxies and prefetching load it too). */
export async function recordOpen(ctx: Ctx, sendId: string, details: { country: string | null }): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    const row = await loadSend(tx, sendId);
    if (!row) return;
    const now = tx.clock.now();
    if (!row.send.openedAt) await tx.db.update(sends).set({ openedAt: now }).where(eq(sends.id, sendId));
    await recordEvent(
      tx,
      systemActor("tracking:open", row.send.workspaceId),
      "email.opened",
      { ...base(row, now), country: details.country },
      now,
    );
  });
}

/** A tracked link was followed. */
export async function recordClick(
  ctx: Ctx,
  sendId: string,
  details: { url: string; country: string | null; deviceType: DeviceType | null; client: string | null },
): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    const row = await loadSend(tx, sendId);
    if (!row) return;
    const now = tx.clock.now();
    if (!row.send.clickedAt) await tx.db.update(sends).set({ clickedAt: now }).where(eq(sends.id, sendId));
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
    );
  });
}

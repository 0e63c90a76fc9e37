import "server-only";

import { withTransaction, type Ctx } from "@/lib/context";
import { providerEvents, type MailProvider, type StoredProviderEvent } from "@/lib/db/schema";
import { emitEvents } from "@/lib/events/emit-events";
import { providerEventReceived } from "@/lib/events/workflow-events";
import { newId } from "@/lib/ids";

import type { ProviderEvent } from "./record-provider-event";

/** A bounce message is rarely more than a few hundred KiB; the raw evidence is kept up to this. */
export const MAX_RAW_CHARS = 512 * 1024;
/** Mail that is no report of ours is kept only as a glimpse: enough to see what it was. */
const MAX_UNRECOGNIZED_RAW_CHARS = 16 * 1024;

export interface ReceivedReport {
  provider: MailProvider;
  /** The provider's own id for the report (a webhook's id, a bounce message's Message-ID): a replay is a no-op. */
  providerEventId: string;
  raw: string;
  /** The report in our terms; null when there is nothing of ours in it. */
  event: ProviderEvent | null;
  /** For a bounce mailbox message that is neither a delivery status notification nor a complaint report. */
  unrecognized?: boolean;
}

export function toStored(event: ProviderEvent): StoredProviderEvent {
  return { ...event, occurredAt: event.occurredAt.toISOString() };
}

/**
 * The first thing done with any provider report: stored as it arrived, and,
 * when it has something to apply, handed to the apply-provider-event workflow
 * in the same transaction. Answering the provider needs nothing more, so a
 * database hiccup while applying loses nothing: the workflow retries from
 * the stored row. A report already received is not stored or applied again.
 */
export async function receiveProviderEvent(
  ctx: Ctx,
  report: ReceivedReport,
): Promise<{ id: string | null; duplicate: boolean }> {
  return withTransaction(ctx, async (tx) => {
    const state = report.unrecognized ? "unrecognized" : report.event ? "received" : "ignored";
    const [stored] = await tx.db
      .insert(providerEvents)
      .values({
        id: newId("pev"),
        provider: report.provider,
        providerEventId: report.providerEventId.slice(0, 500),
        raw: report.raw.slice(0, report.unrecognized ? MAX_UNRECOGNIZED_RAW_CHARS : MAX_RAW_CHARS),
        event: report.event ? toStored(report.event) : null,
        state,
        receivedAt: tx.clock.now(),
      })
      .onConflictDoNothing()
      .returning({ id: providerEvents.id });
    if (!stored) return { id: null, duplicate: true };
    if (state === "received")
      await emitEvents(tx, [{ name: providerEventReceived.name, id: stored.id, data: { providerEventId: stored.id } }]);
    return { id: stored.id, duplicate: false };
  });
}

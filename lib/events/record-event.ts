import { requireActorWorkspace, type Actor } from "@/lib/actor";
import { withTransaction, type Ctx } from "@/lib/context";
import { events } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import { queueDeliveries } from "@/lib/webhooks/queue-deliveries";

export const EVENT_TYPES = [
  "contact.subscribed", "contact.unsubscribed",
  "email.delivered", "email.bounced", "email.complained", "email.failed", "email.opened", "email.clicked",
  "campaign.sending", "campaign.sent", "campaign.paused", "campaign.cancelled",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * Writes an event to the outbox with a delivery for each endpoint that wants
 * it, in the caller's transaction so they exist exactly when the change does.
 * It belongs to the actor's workspace. Test-key actions record nothing: no
 * webhook ever fires for them.
 */
export async function recordEvent(
  ctx: Ctx,
  actor: Actor,
  type: EventType,
  data: Record<string, unknown>,
  occurredAt: Date,
): Promise<void> {
  const workspaceId = requireActorWorkspace(actor);
  if (actor.mode === "test") return;
  await withTransaction(ctx, async (tx) => {
    const event = { id: newId("evt"), workspaceId, type, data, occurredAt, createdAt: tx.clock.now() };
    await tx.db.insert(events).values(event);
    await queueDeliveries(tx, event);
  });
}

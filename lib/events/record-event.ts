import type { Caller } from "@/lib/caller";
import type { Ctx } from "@/lib/context";
import { events } from "@/lib/db/schema";
import { newId } from "@/lib/ids";

export const EVENT_TYPES = [
  "contact.subscribed", "contact.unsubscribed",
  "email.delivered", "email.bounced", "email.complained", "email.failed", "email.opened", "email.clicked",
  "campaign.sending", "campaign.sent", "campaign.paused", "campaign.cancelled",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * Writes an event to the outbox, in the caller's transaction so it exists
 * exactly when the change does. Test-key actions record nothing: no webhook
 * ever fires for them.
 */
export async function recordEvent(
  ctx: Ctx,
  caller: Pick<Caller, "workspaceId" | "mode">,
  type: EventType,
  data: Record<string, unknown>,
  occurredAt: Date,
): Promise<void> {
  if (caller.mode === "test") return;
  await ctx.db.insert(events).values({ id: newId("evt"), workspaceId: caller.workspaceId, type, data, occurredAt, createdAt: ctx.clock.now() });
}

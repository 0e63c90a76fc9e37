import "server-only";

import type { Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { recordEvent } from "@/lib/events/record-event";

import type { ProviderEvent } from "./record-provider-event";

/**
 * Internal: the `email.*` event a provider's report makes, for campaign mail and automation mail alike:
 * `base` is the mail's base fields, `suppressed` whether the report suppressed the address.
 */
export async function recordDeliveryEvent(
  ctx: Ctx,
  actor: Actor,
  event: ProviderEvent,
  base: Record<string, unknown>,
  suppressed: boolean,
): Promise<void> {
  if (event.type === "delivered") await recordEvent(ctx, actor, "email.delivered", base, event.occurredAt);
  if (event.type === "bounced")
    await recordEvent(
      ctx,
      actor,
      "email.bounced",
      { ...base, bounce_type: event.bounceType, reason: event.reason ?? null, suppressed },
      event.occurredAt,
    );
  if (event.type === "complained")
    await recordEvent(
      ctx,
      actor,
      "email.complained",
      { ...base, complaint_type: event.complaintType ?? null, suppressed: true },
      event.occurredAt,
    );
}

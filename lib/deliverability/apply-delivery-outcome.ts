import "server-only";

import { and, eq, sql } from "drizzle-orm";

import { systemActor } from "@/lib/actor";
import { withTransaction, type Ctx } from "@/lib/context";
import { contacts, suppressions, type SuppressionReason } from "@/lib/db/schema";
import { createSuppression } from "@/lib/suppressions/create-suppression";

// A stronger reason replaces a weaker one on an address already suppressed: a complaint is never lost.
const STRENGTH: Record<SuppressionReason, number> = { manual: 0, soft_bounce: 1, bounce: 2, complaint: 3 };

async function suppress(
  ctx: Ctx,
  workspaceId: string,
  email: string,
  reason: SuppressionReason,
  note: string,
  evidenceEventId: string | null,
): Promise<void> {
  const { suppression, created } = await createSuppression(
    ctx,
    systemActor("delivery-outcome", workspaceId),
    { email, note, evidenceEventId },
    reason,
  );
  if (!created && STRENGTH[reason] > STRENGTH[suppression.reason]) {
    await ctx.db.update(suppressions).set({ reason, note, evidenceEventId }).where(eq(suppressions.id, suppression.id));
  }
}

export type DeliveryOutcome =
  | { type: "delivered" }
  | { type: "bounced"; bounceType: "permanent" | "transient" | "undetermined" }
  | { type: "complained" };

/** docs/readings.md, "The fifth transient bounce": 5 transient bounces in a row, with no delivery between, suppress the address. */
export const SOFT_BOUNCE_LIMIT = 5;

/**
 * What a mail provider reported for one address, applied to the audience:
 * a permanent bounce suppresses the address (contact `bounced`), a complaint
 * suppresses it for good (contact `complained`), transient bounces count up
 * to a soft_bounce suppression and a delivery resets that count.
 * Returns whether the address is now suppressed by this outcome. The
 * provider's report, when stored, becomes the suppression's evidence.
 * System: a mail provider's report, for the workspace of the send it names; no person's request reaches it.
 */
export async function applyDeliveryOutcome(
  ctx: Ctx,
  workspaceId: string,
  email: string,
  outcome: DeliveryOutcome,
  evidenceEventId: string | null = null,
): Promise<{ suppressed: boolean }> {
  return withTransaction(ctx, async (tx) => {
    const byAddress = and(eq(contacts.workspaceId, workspaceId), eq(contacts.email, email));
    switch (outcome.type) {
      case "delivered":
        await tx.db.update(contacts).set({ transientBounceStreak: 0 }).where(byAddress);
        return { suppressed: false };
      case "complained":
        await suppress(
          tx,
          workspaceId,
          email,
          "complaint",
          "The recipient reported the mail as spam.",
          evidenceEventId,
        );
        return { suppressed: true };
      case "bounced": {
        if (outcome.bounceType === "permanent") {
          await suppress(tx, workspaceId, email, "bounce", "Permanent bounce.", evidenceEventId);
          return { suppressed: true };
        }
        if (outcome.bounceType === "undetermined") return { suppressed: false };
        const [contact] = await tx.db
          .update(contacts)
          .set({ transientBounceStreak: sql`${contacts.transientBounceStreak} + 1` })
          .where(byAddress)
          .returning({ streak: contacts.transientBounceStreak });
        if (!contact || contact.streak < SOFT_BOUNCE_LIMIT) return { suppressed: false };
        await suppress(
          tx,
          workspaceId,
          email,
          "soft_bounce",
          `${contact.streak} transient bounces in a row.`,
          evidenceEventId,
        );
        return { suppressed: true };
      }
    }
  });
}

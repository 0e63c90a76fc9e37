import "server-only";

import { eq } from "drizzle-orm";

import type { Actor } from "@/lib/actor";
import { withTransaction, type Ctx } from "@/lib/context";
import { brands } from "@/lib/db/schema";
import { parseInput } from "@/lib/validation/parse-input";

import { BRAND_IDENTITY_FIELDS, updateBrandSchema, type UpdateBrandInput } from "./brand-schemas";
import { refuseFreeMailSender } from "./free-mail";
import { getBrandOrThrow } from "./get-brand-or-throw";

/**
 * Edits a brand. Changing its identity (name, legal name, sender or postal
 * address) returns it to review and holds its sending until the review ends:
 * campaigns that are sending stop before their next batch and carry on when
 * the brand is approved. Cosmetic edits (website, logo, colour) change nothing
 * else.
 */
export async function updateBrand(ctx: Ctx, actor: Actor, brandId: string, input: UpdateBrandInput) {
  const changes = parseInput(updateBrandSchema, input);
  return withTransaction(ctx, async (tx) => {
    const brand = await getBrandOrThrow(tx, actor, brandId);
    // Only a new sender is checked: a brand made before this rule keeps its other fields editable.
    if (changes.senderEmail !== undefined && changes.senderEmail !== brand.senderEmail)
      refuseFreeMailSender(changes.senderEmail);
    const identityEdited = BRAND_IDENTITY_FIELDS.some(
      (field) => changes[field] !== undefined && changes[field] !== brand[field],
    );
    const now = tx.clock.now();
    const [updated] = await tx.db
      .update(brands)
      .set({
        ...changes,
        updatedAt: now,
        ...(identityEdited
          ? { reviewStatus: "pending" as const, reviewedAt: null, sendingHeldAt: brand.sendingHeldAt ?? now }
          : {}),
      })
      .where(eq(brands.id, brandId))
      .returning();
    return { brand: updated!, identityEdited };
  });
}

import { eq } from "drizzle-orm";
import { z } from "zod";
import { withTransaction, type Ctx } from "@/lib/context";
import { brands } from "@/lib/db/schema";
import { emailField, nameField, urlField } from "@/lib/validation/fields";
import { parseInput } from "@/lib/validation/parse-input";
import { getBrandOrThrow } from "./get-brand-or-throw";

const updateBrandSchema = z.strictObject({
  name: nameField.optional(),
  legalName: nameField.optional(),
  postalAddress: z.string().trim().min(1, "must not be empty").max(500).optional(),
  senderEmail: emailField.optional(),
  websiteUrl: urlField.optional(),
  logoUrl: urlField.optional(),
  primaryColor: z.string().regex(/^#[0-9a-fA-F]{6}$/, "must be a colour like #1a2b3c").optional(),
});

/** What recipients judge a sender by; changing any of it needs the service's review again. */
const IDENTITY = ["name", "legalName", "postalAddress", "senderEmail"] as const;

/**
 * Edits a brand. Changing its identity (name, legal name, sender or postal
 * address) returns it to review and holds its sending until the review ends:
 * campaigns that are sending stop before their next batch and carry on when
 * the brand is approved. Cosmetic edits (website, logo, colour) change nothing
 * else.
 */
export async function updateBrand(ctx: Ctx, brandId: string, input: z.input<typeof updateBrandSchema>) {
  const changes = parseInput(updateBrandSchema, input);
  return withTransaction(ctx, async (tx) => {
    const brand = await getBrandOrThrow(tx, brandId);
    const identityEdited = IDENTITY.some((field) => changes[field] !== undefined && changes[field] !== brand[field]);
    const now = tx.clock.now();
    const [updated] = await tx.db
      .update(brands)
      .set({ ...changes, updatedAt: now, ...(identityEdited ? { reviewStatus: "pending" as const, reviewedAt: null, sendingHeldAt: brand.sendingHeldAt ?? now } : {}) })
      .where(eq(brands.id, brandId))
      .returning();
    return { brand: updated!, identityEdited };
  });
}

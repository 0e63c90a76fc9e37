import { z } from "zod";
import { brands } from "@/lib/db/schema";
import type { Ctx } from "@/lib/context";
import { newId } from "@/lib/ids";
import { getWorkspaceOrThrow } from "@/lib/workspaces/get-workspace-or-throw";
import { emailField, nameField, urlField } from "@/lib/validation/fields";
import { parseInput } from "@/lib/validation/parse-input";

const createBrandSchema = z.strictObject({
  workspaceId: z.string(),
  name: nameField,
  legalName: nameField,
  postalAddress: z.string().trim().min(1, "must not be empty").max(500),
  websiteUrl: urlField,
  senderEmail: emailField,
});

/**
 * A new brand starts in review. Until the workspace itself is approved its
 * campaigns reach only verified addresses; a later identity edit holds the
 * brand's sending until that review ends (update-brand).
 */
export async function createBrand(ctx: Ctx, input: z.input<typeof createBrandSchema>): Promise<{ brandId: string }> {
  const values = parseInput(createBrandSchema, input);
  await getWorkspaceOrThrow(ctx, values.workspaceId);
  const brandId = newId("br");
  await ctx.db.insert(brands).values({ id: brandId, ...values, createdAt: ctx.clock.now(), updatedAt: ctx.clock.now() });
  return { brandId };
}

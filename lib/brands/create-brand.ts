import "server-only";

import { requireActorWorkspace, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { brands } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import { parseInput } from "@/lib/validation/parse-input";
import { getWorkspaceOrThrow } from "@/lib/workspaces/get-workspace-or-throw";

import { createBrandSchema, type CreateBrandInput } from "./brand-schemas";
import { refuseFreeMailSender } from "./free-mail";

/**
 * A new brand starts in review. Until the workspace itself is approved its
 * campaigns reach only verified addresses; a later identity edit holds the
 * brand's sending until that review ends (update-brand).
 */
export async function createBrand(ctx: Ctx, actor: Actor, input: CreateBrandInput): Promise<{ brandId: string }> {
  const values = parseInput(createBrandSchema, input);
  refuseFreeMailSender(values.senderEmail);
  const workspaceId = requireActorWorkspace(actor);
  await getWorkspaceOrThrow(ctx, workspaceId);
  const brandId = newId("br");
  await ctx.db
    .insert(brands)
    .values({ id: brandId, workspaceId, ...values, createdAt: ctx.clock.now(), updatedAt: ctx.clock.now() });
  return { brandId };
}

import "server-only";

import { requireActorWorkspace, type Actor } from "@/lib/actor";
import { getBrandOrThrow } from "@/lib/brands/get-brand-or-throw";
import type { Ctx } from "@/lib/context";
import { apiKeys } from "@/lib/db/schema";
import { validationFailed } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { parseInput } from "@/lib/validation/parse-input";
import { getWorkspaceOrThrow } from "@/lib/workspaces/get-workspace-or-throw";

import { createApiKeySchema, type CreateApiKeyInput } from "./api-key-schemas";
import { generateKey, hashKey, keyPrefix } from "./key-format";

/** Returns the key in full; this is the only time it exists outside the caller's hands. */
export async function createApiKey(
  ctx: Ctx,
  actor: Actor,
  input: CreateApiKeyInput,
): Promise<{ keyId: string; key: string }> {
  const values = parseInput(createApiKeySchema, input);
  if (values.origins.length > 0 && values.kind !== "publishable") {
    throw validationFailed("origins", "origins: only publishable keys carry an origin allowlist.");
  }
  const workspaceId = requireActorWorkspace(actor);
  await getWorkspaceOrThrow(ctx, workspaceId);
  if (values.brandId) await getBrandOrThrow(ctx, actor, values.brandId);
  const key = generateKey(values.kind, values.environment);
  const keyId = newId("key");
  await ctx.db.insert(apiKeys).values({
    id: keyId,
    workspaceId,
    name: values.name,
    kind: values.kind,
    environment: values.environment,
    brandId: values.brandId ?? null,
    allowedOrigins: [...new Set(values.origins)],
    keyHash: hashKey(key),
    displayPrefix: keyPrefix(values.kind, values.environment),
    last4: key.slice(-4),
    // Who to ask about it, and what a member's removal lists; the operator's CLI is no member.
    createdByUserId: actor.kind === "user" ? actor.userId : null,
    createdAt: ctx.clock.now(),
  });
  return { keyId, key };
}

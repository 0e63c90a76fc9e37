import { z } from "zod";
import { KEY_ENVIRONMENTS, KEY_KINDS, apiKeys } from "@/lib/db/schema";
import type { Ctx } from "@/lib/context";
import { validationFailed } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { getBrandOrThrow } from "@/lib/brands/get-brand-or-throw";
import { getWorkspaceOrThrow } from "@/lib/workspaces/get-workspace-or-throw";
import { originField } from "@/lib/validation/fields";
import { parseInput } from "@/lib/validation/parse-input";
import { generateKey, hashKey, keyPrefix } from "./key-format";

const createApiKeySchema = z.strictObject({
  workspaceId: z.string(),
  kind: z.enum(KEY_KINDS),
  environment: z.enum(KEY_ENVIRONMENTS),
  brandId: z.string().optional(),
  origins: z.array(originField).max(50).default([]),
  name: z.string().trim().max(200).default(""),
});

/** Returns the key in full; this is the only time it exists outside the caller's hands. */
export async function createApiKey(ctx: Ctx, input: z.input<typeof createApiKeySchema>): Promise<{ keyId: string; key: string }> {
  const values = parseInput(createApiKeySchema, input);
  if (values.origins.length > 0 && values.kind !== "publishable") {
    throw validationFailed("origins", "origins: only publishable keys carry an origin allowlist.");
  }
  await getWorkspaceOrThrow(ctx, values.workspaceId);
  if (values.brandId) await getBrandOrThrow(ctx, values.brandId, values.workspaceId);
  const key = generateKey(values.kind, values.environment);
  const keyId = newId("key");
  await ctx.db.insert(apiKeys).values({
    id: keyId,
    workspaceId: values.workspaceId,
    name: values.name,
    kind: values.kind,
    environment: values.environment,
    brandId: values.brandId ?? null,
    allowedOrigins: [...new Set(values.origins)],
    keyHash: hashKey(key),
    displayPrefix: keyPrefix(values.kind, values.environment),
    last4: key.slice(-4),
    createdAt: ctx.clock.now(),
  });
  return { keyId, key };
}

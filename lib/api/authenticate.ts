import { eq } from "drizzle-orm";
import { apiKeys, workspaceBilling, type BillingStage } from "@/lib/db/schema";
import type { Ctx } from "@/lib/context";
import { ApiError } from "@/lib/errors";
import { hashKey, parseKey } from "@/lib/api-keys/key-format";

export interface AuthenticatedKey {
  keyId: string;
  workspaceId: string;
  kind: "secret" | "publishable";
  environment: "live" | "test";
  brandId: string | null;
  allowedOrigins: string[];
  billingStage: BillingStage | null;
}

const missing = () =>
  new ApiError({ type: "authentication_error", code: "missing_api_key", message: "Send your API key as `Authorization: Bearer <API_KEY>`." });
const invalid = () => new ApiError({ type: "authentication_error", code: "invalid_api_key", message: "The API key is not recognised or has been revoked." });

/**
 * `Authorization: Bearer <key>` and nothing else. A key with a bad checksum is
 * refused without a database look-up; a known key is looked up by its hash on
 * every request, so revocation takes effect on the next one.
 */
export async function authenticate(ctx: Ctx, authorization: string | null): Promise<AuthenticatedKey> {
  const match = authorization ? /^Bearer ([^\s]+)$/.exec(authorization) : null;
  if (!match) throw missing();
  const key = match[1]!;
  if (!parseKey(key)) throw invalid();
  const [row] = await ctx.db
    .select({
      keyId: apiKeys.id,
      workspaceId: apiKeys.workspaceId,
      kind: apiKeys.kind,
      environment: apiKeys.environment,
      brandId: apiKeys.brandId,
      allowedOrigins: apiKeys.allowedOrigins,
      revokedAt: apiKeys.revokedAt,
      billingStage: workspaceBilling.stage,
    })
    .from(apiKeys)
    .leftJoin(workspaceBilling, eq(workspaceBilling.workspaceId, apiKeys.workspaceId))
    .where(eq(apiKeys.keyHash, hashKey(key)));
  if (!row || row.revokedAt) throw invalid();
  const { revokedAt: _revoked, ...authenticated } = row;
  return authenticated;
}

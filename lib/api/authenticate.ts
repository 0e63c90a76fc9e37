import "server-only";
import type { Ctx } from "@/lib/context";
import { rawClient } from "@/lib/db/client";
import type { BillingStage, KeyEnvironment, KeyKind } from "@/lib/db/schema";
import { ApiError } from "@/lib/errors";
import { hashKey, parseKey } from "@/lib/api-keys/key-format";
import { touchLastUsed } from "@/lib/api-keys/touch-last-used";

export interface AuthenticatedKey {
  keyId: string;
  workspaceId: string;
  kind: KeyKind;
  environment: KeyEnvironment;
  brandId: string | null;
  allowedOrigins: string[];
  billingStage: BillingStage | null;
  /** What the keys screen shows, e.g. `sk_live_…a1b2` (the last four are checksum): safe for logs. */
  keyLabel: string;
}

const missing = () => new ApiError({ type: "authentication_error", code: "missing_api_key", message: "Send your API key as `Authorization: Bearer <API_KEY>`." });
const invalid = () => new ApiError({ type: "authentication_error", code: "invalid_api_key", message: "The API key is not recognised or has been revoked." });

/**
 * `Authorization: Bearer <key>` and nothing else. A key with a bad checksum is
 * refused without a database look-up; a known key is looked up by its hash on
 * every request (never cached), so revocation takes effect on the next one.
 */
export async function authenticate(ctx: Ctx, authorization: string | null): Promise<AuthenticatedKey> {
  const match = authorization ? /^Bearer ([^\s]+)$/.exec(authorization) : null;
  if (!match) throw missing();
  const key = match[1]!;
  if (!parseKey(key)) throw invalid();
  const sql = rawClient(ctx.db);
  const [row] = await sql<AuthenticatedKey[]>`
    select k.id as "keyId", k.workspace_id as "workspaceId", k.kind, k.environment, k.brand_id as "brandId",
           k.allowed_origins as "allowedOrigins", b.stage as "billingStage", k.display_prefix || '…' || k.last4 as "keyLabel"
    from api_keys k left join workspace_billing b on b.workspace_id = k.workspace_id
    where k.key_hash = ${hashKey(key)} and k.revoked_at is null`;
  if (!row) throw invalid();
  void touchLastUsed(ctx, row.keyId);
  return row;
}

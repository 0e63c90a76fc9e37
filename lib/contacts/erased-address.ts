import "server-only";

import { createHmac } from "node:crypto";
import { and, eq, sql, type SQL } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { erasedContacts } from "@/lib/db/schema";
import { requiredSecret } from "@/lib/env";
import { ApiError } from "@/lib/errors";

// An erased person's address is kept only as HMAC-SHA256 under a key derived from TOKEN_SECRET: the
// service can tell the address again when someone tries to add it, nobody reading the table can
// recover it, and a dictionary of likely addresses is useless without the key. Rotating
// TOKEN_SECRET forgets every erasure (docs/readings.md, "Erasing a contact").

const BLOCK = 64;

/** The HMAC key, and its inner and outer pads, so that PostgreSQL computes the same HMAC with sha256(). */
function hashKey() {
  const key = createHmac("sha256", requiredSecret("TOKEN_SECRET")).update("erased-contact-address").digest();
  const padded = Buffer.alloc(BLOCK);
  key.copy(padded);
  const xor = (byte: number) => Buffer.from(padded.map((b) => b ^ byte));
  return { key, inner: xor(0x36), outer: xor(0x5c) };
}

/** The keyed hash of a normalised address. */
export function erasedAddressHash(email: string): Buffer {
  return createHmac("sha256", hashKey().key).update(email, "utf8").digest();
}

/** The same hash in SQL, of an address column or value: HMAC written out (RFC 2104) on the built-in sha256(). */
export function erasedAddressHashSql(email: SQL): SQL {
  const { inner, outer } = hashKey();
  return sql`sha256(${outer}::bytea || sha256(${inner}::bytea || convert_to(${email}, 'UTF8')))`;
}

/**
 * Whether the address belongs to a contact the workspace erased, inside a query: the uncorrelated
 * EXISTS is asked once per query, so a workspace that never erased anyone pays no hash per row.
 * Internal: a condition inside queries already kept to the workspace in hand.
 */
export function erasedSql(workspaceId: string, email: SQL): SQL {
  return sql`(exists (select 1 from erased_contacts where workspace_id = ${workspaceId})
    and exists (select 1 from erased_contacts e where e.workspace_id = ${workspaceId} and e.address_hash = ${erasedAddressHashSql(email)}))`;
}

/** Whether the workspace erased a contact with this address. Internal: the verbs that add contacts, with their actor's workspace. */
export async function isErasedAddress(ctx: Ctx, workspaceId: string, email: string): Promise<boolean> {
  const [row] = await ctx.db
    .select({ one: sql`1` })
    .from(erasedContacts)
    .where(and(eq(erasedContacts.workspaceId, workspaceId), eq(erasedContacts.addressHash, erasedAddressHash(email))));
  return row !== undefined;
}

/** Whether this id was a contact the workspace erased. Internal: the list verbs, with the list's workspace. */
export async function isErasedContact(ctx: Ctx, workspaceId: string, contactId: string): Promise<boolean> {
  const [row] = await ctx.db
    .select({ one: sql`1` })
    .from(erasedContacts)
    .where(and(eq(erasedContacts.workspaceId, workspaceId), eq(erasedContacts.contactId, contactId)));
  return row !== undefined;
}

export const contactErased = (
  param = "email",
  message = "This person's data was erased at their request, so the address cannot be added again. They may sign up again themselves, from a signup form.",
) => new ApiError({ type: "invalid_request_error", code: "contact_erased", param, message });

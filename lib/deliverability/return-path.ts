import { createHmac, timingSafeEqual } from "node:crypto";

import { requiredSecret } from "@/lib/env";

// VERP: each message's envelope sender names the message, so a bounce (which goes back to the envelope
// sender) says which send it is about without guessing from its text. Signed, so that a forged bounce
// cannot suppress an address of the sender's choosing. Lower-case hex: some servers lower-case local parts.

const PATTERN = /^bounces\+([a-z0-9_]+)\.([0-9a-f]{16})@/i;

function mac(key: string): string {
  return createHmac("sha256", requiredSecret("TOKEN_SECRET")).update(`return-path.${key}`).digest("hex").slice(0, 16);
}

/**
 * The envelope sender for a message: bounces+<idempotency key>.<mac>@<bounce domain>, when the key
 * fits in an address (campaign sends' ids do); other mail (confirmations, invitations) leaves from
 * plain bounces@<bounce domain>.
 */
export function returnPathFor(idempotencyKey: string, bounceDomain: string): string {
  if (!/^[a-z0-9_]{1,40}$/.test(idempotencyKey)) return `bounces@${bounceDomain}`;
  return `bounces+${idempotencyKey}.${mac(idempotencyKey)}@${bounceDomain}`;
}

/** The message key a bounce address names, or null when it is not one of ours or its signature is wrong. */
export function readReturnPath(address: string): string | null {
  const match = PATTERN.exec(address.trim());
  if (!match) return null;
  const [, key, given] = match as unknown as [string, string, string];
  const expected = mac(key.toLowerCase());
  return timingSafeEqual(Buffer.from(expected), Buffer.from(given.toLowerCase())) ? key.toLowerCase() : null;
}

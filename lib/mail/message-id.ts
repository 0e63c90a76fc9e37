import { createHash, createHmac, timingSafeEqual } from "node:crypto";

import { requiredSecret } from "@/lib/env";

// A message's Message-ID is `<key.signature@sender's domain>`: its idempotency key and an HMAC of it.
// A complaint or bounce that reaches us without a signed return path names its message only by the
// Message-ID it quotes, and send ids are ULIDs that follow each other within a campaign: whoever got
// one mail could write the next id. Only an id whose signature verifies names a message.
// Stable per key (and TOKEN_SECRET), so a resent copy is recognisably the same message.

/** A key that can stand as the msg-id's left part as it is (dot-atom-text without dots). */
const PLAIN_KEY = /^[A-Za-z0-9_-]{1,200}$/;
const PATTERN = /^<?([A-Za-z0-9_-]{1,200})\.([0-9a-f]{32})@[^<>@\s]+>?$/i;

function mac(key: string): string {
  return createHmac("sha256", requiredSecret("TOKEN_SECRET")).update(`message-id.${key}`).digest("hex").slice(0, 32);
}

/** The Message-ID for a message with this idempotency key; a key that could not stand in a msg-id is replaced by its digest. */
export function signedMessageId(idempotencyKey: string, domain: string): string {
  const key = PLAIN_KEY.test(idempotencyKey)
    ? idempotencyKey
    : `h${createHash("sha256").update(idempotencyKey).digest("hex").slice(0, 40)}`;
  return `<${key}.${mac(key)}@${domain}>`;
}

/** The key a quoted Message-ID names, or null when it is not one of ours or its signature is wrong (compared in constant time). */
export function readMessageId(messageId: string): string | null {
  const match = PATTERN.exec(messageId.trim());
  if (!match) return null;
  const [, key, given] = match as unknown as [string, string, string];
  return timingSafeEqual(Buffer.from(mac(key)), Buffer.from(given.toLowerCase())) ? key : null;
}

import { createHash } from "node:crypto";
import { crc32 } from "node:zlib";

import type { KeyEnvironment, KeyKind } from "@/lib/db/schema";
import { randomBase62, toBase62 } from "@/lib/ids";

const KIND_LETTER: Record<KeyKind, string> = { secret: "sk", publishable: "pk" };
const RANDOM_LENGTH = 40;
const CHECKSUM_LENGTH = 6;
const KEY_PATTERN = /^(sk|pk)_(live|test)_([0-9A-Za-z]{40})([0-9A-Za-z]{6})$/;

export function keyPrefix(kind: KeyKind, environment: KeyEnvironment): string {
  return `${KIND_LETTER[kind]}_${environment}_`;
}

function checksum(body: string): string {
  return toBase62(crc32(body), CHECKSUM_LENGTH);
}

/**
 * `<prefix><40 random base62><6-char base62 CRC32 of what precedes it>`. The
 * checksum lets secret scanners and the API reject a mistyped key without a
 * database look-up.
 */
export function generateKey(kind: KeyKind, environment: KeyEnvironment): string {
  const body = keyPrefix(kind, environment) + randomBase62(RANDOM_LENGTH);
  return body + checksum(body);
}

export interface ParsedKey {
  kind: KeyKind;
  environment: KeyEnvironment;
}

/** The kind and environment of a well-formed key with a correct checksum, else null. */
export function parseKey(key: string): ParsedKey | null {
  const match = KEY_PATTERN.exec(key);
  if (!match) return null;
  const body = key.slice(0, -CHECKSUM_LENGTH);
  if (checksum(body) !== match[4]) return null;
  return { kind: match[1] === "sk" ? "secret" : "publishable", environment: match[2] as KeyEnvironment };
}

/** Only this hash is stored; keys have enough entropy that a fast hash is safe. */
export function hashKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

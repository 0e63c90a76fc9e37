import { randomBytes, randomFillSync } from "node:crypto";
import { monotonicFactory } from "ulid";

// Every identifier and token comes from this module.

// ulid asks for one random number per character; one system call per character was measured as a
// twentieth of the CPU of recording an event. The bytes come from the same CSPRNG, 4 KiB at a time.
const pool = new Uint8Array(4096);
let used = pool.length;
function randomUnit(): number {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  return pool[used++]! / 256;
}
const nextUlid = monotonicFactory(randomUnit);

export type IdPrefix =
  | "ws"
  | "usr"
  | "br"
  | "dom"
  | "tp"
  | "ls"
  | "ct"
  | "sub"
  | "sup"
  | "key"
  | "cmp"
  | "snd"
  | "wh"
  | "evt"
  | "whd"
  | "wha"
  | "cfr"
  | "msg"
  | "run"
  | "ev"
  | "img"
  | "tpl"
  | "imp"
  | "req"
  | "fm"
  | "fms"
  | "pev"
  | "sul"
  | "inv"
  | "bep"
  | "oob"
  | "cba"
  | "seg"
  | "aut"
  | "auv"
  | "aen"
  | "asn"
  | "cev";

/**
 * A type prefix plus a ULID, lower-cased. ULIDs sort by creation time, so
 * newest-first order is id order (ids are stored with the "C" collation).
 */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${nextUlid().toLowerCase()}`;
}

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Uniformly random base62 text (rejection sampling keeps it unbiased). */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

export function toBase62(value: number, width: number): string {
  let out = "";
  let rest = value;
  do {
    out = BASE62[rest % 62] + out;
    rest = Math.floor(rest / 62);
  } while (rest > 0);
  return out.padStart(width, "0");
}

/** Random bytes as URL-safe text, for secrets and signed-token nonces. */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

/**
 * The shared start of ids made in bulk by one SQL statement: the prefix, the
 * time in hex and a random salt (26 characters with an 8-hex row number
 * appended), so they sort by creation time like every other id without a
 * random draw per row.
 */
export function bulkIdPrefix(prefix: IdPrefix, at: Date): string {
  return `${prefix}_${at.getTime().toString(16).padStart(12, "0")}${randomBytes(3).toString("hex")}`;
}

const CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz";

/**
 * The start of ids one SQL statement makes in bulk, each finished there by a fixed-width suffix of
 * `suffixChars` lower-case hex digits (a row number, an ordinal): the prefix, then a ULID's time
 * and random characters up to the suffix. Hex digits are ULID characters, so the ids are shaped and
 * sort like every other id (by creation time) without a random draw per row.
 */
export function bulkUlidPrefix(prefix: IdPrefix, suffixChars: number): string {
  const random = randomBytes(16 - suffixChars);
  // The time of a ULID made now, as newId's: ids made one by one and in bulk sort together.
  let text = `${prefix}_${nextUlid().slice(0, 10).toLowerCase()}`;
  for (const byte of random) text += CROCKFORD[byte & 31];
  return text;
}

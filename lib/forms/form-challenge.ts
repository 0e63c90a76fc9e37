import "server-only";

import { createHmac } from "node:crypto";
import { createChallenge, verifySolution } from "altcha-lib/v1";

import type { Ctx } from "@/lib/context";
import { rawClient } from "@/lib/db/client";
import { requiredSecret } from "@/lib/env";

/**
 * ALTCHA's proof of work: the browser must find the number n ≤ maxnumber
 * with SHA-256(salt + n) = challenge. About 25,000 hashes on average: under
 * a second in a browser, a real cost for a bot posting thousands.
 */
export const CHALLENGE_MAX_NUMBER = 50_000;
const CHALLENGE_VALIDITY_MS = 10 * 60_000;

function hmacKey(): string {
  return createHmac("sha256", requiredSecret("TOKEN_SECRET")).update("signup-form-challenge").digest("hex");
}

export function newFormChallenge(ctx: Ctx): ReturnType<typeof createChallenge> {
  return createChallenge({
    hmacKey: hmacKey(),
    maxNumber: CHALLENGE_MAX_NUMBER,
    expires: new Date(ctx.clock.now().getTime() + CHALLENGE_VALIDITY_MS),
  });
}

/**
 * True for a solution of a challenge this service made, not expired and not
 * used before. The first use is recorded until the challenge expires, so one
 * solved challenge cannot carry a thousand submissions.
 */
export async function acceptFormChallenge(ctx: Ctx, payload: unknown): Promise<boolean> {
  if (typeof payload !== "string" || payload.length > 2000) return false;
  if (!(await verifySolution(payload, hmacKey(), true))) return false;
  const { signature } = JSON.parse(Buffer.from(payload, "base64").toString("utf8")) as { signature: string };
  const now = ctx.clock.now();
  const sql = rawClient(ctx.db);
  await sql`delete from signup_form_challenge_uses where expires_at < ${now.toISOString()}`;
  const recorded = await sql`
    insert into signup_form_challenge_uses (signature, expires_at) values (${signature}, ${new Date(now.getTime() + CHALLENGE_VALIDITY_MS).toISOString()})
    on conflict do nothing returning signature`;
  return recorded.length === 1;
}

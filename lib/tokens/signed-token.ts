import { createHmac, timingSafeEqual } from "node:crypto";

import { requiredSecret } from "@/lib/env";

/**
 * Every link the service mails carries one of these: a JSON payload and an
 * HMAC-SHA256 over the purpose and the payload. A forged or altered token, or
 * one made for another purpose (a confirmation token used to unsubscribe),
 * does not verify.
 */
export type TokenPurpose =
  | "confirm"
  | "unsubscribe"
  | "preferences"
  | "open"
  | "click"
  | "invite"
  | "form_error"
  | "verify_address"
  | "password_reset";

function mac(purpose: TokenPurpose, payload: string): string {
  return createHmac("sha256", requiredSecret("TOKEN_SECRET")).update(`${purpose}.${payload}`).digest("base64url");
}

export function signToken(purpose: TokenPurpose, data: Record<string, string | number>): string {
  const payload = Buffer.from(JSON.stringify(data)).toString("base64url");
  return `${payload}.${mac(purpose, payload)}`;
}

export function verifyToken<T extends Record<string, string | number>>(purpose: TokenPurpose, token: string): T | null {
  const [payload, signature, extra] = token.split(".");
  if (!payload || !signature || extra !== undefined) return null;
  const expected = Buffer.from(mac(purpose, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    return JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as T;
  } catch {
    return null;
  }
}

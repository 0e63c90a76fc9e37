import { createHmac } from "node:crypto";

export const SIGNATURE_HEADER = "X-Service-Signature";

/** `X-Service-Signature`: `t=<ms>,v1=<hex HMAC-SHA256 of "{t}.{raw body}">`. */
export function signatureHeader(secret: string, body: string, timestampMs: number): string {
  const digest = createHmac("sha256", secret).update(`${timestampMs}.${body}`).digest("hex");
  return `t=${timestampMs},v1=${digest}`;
}

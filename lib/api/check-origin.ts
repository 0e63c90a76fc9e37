import { ApiError } from "@/lib/errors";

/**
 * A publishable key with an allowlist accepts only requests whose Origin is
 * on it (scheme + host + port); a missing Origin is refused too. Without an
 * allowlist any origin is accepted.
 */
export function checkOrigin(allowedOrigins: string[], origin: string | null): void {
  if (allowedOrigins.length === 0) return;
  if (origin && allowedOrigins.includes(canonicalOrigin(origin))) return;
  throw new ApiError({
    type: "permission_error",
    code: "origin_not_allowed",
    message: "This key does not accept requests from this origin.",
  });
}

export function canonicalOrigin(origin: string): string {
  try {
    return new URL(origin).origin;
  } catch {
    return origin;
  }
}

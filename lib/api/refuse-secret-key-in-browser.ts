import type { KeyKind } from "@/lib/db/schema";
import { ApiError } from "@/lib/errors";

/**
 * Secret keys are not usable in a browser (spec, Authentication). A browser
 * sends Origin on every request that can carry an Authorization header to
 * another site; server-side HTTP clients send none. So a secret key next to
 * an Origin has leaked into a web page: refuse it, whatever the route.
 */
export function refuseSecretKeyInBrowser(kind: KeyKind, origin: string | null): void {
  if (kind !== "secret" || origin === null) return;
  throw new ApiError({
    type: "permission_error",
    code: "secret_key_in_browser",
    message:
      "Secret keys must not be used from a browser: use a publishable key (pk_…) on your site, and revoke this secret key if the page was public.",
  });
}

import { ApiError } from "@/lib/errors";

import type { AuthenticatedKey, KeyUse } from "./authenticate";
import { checkOrigin } from "./check-origin";
import { checkWorkspaceActive } from "./check-workspace-active";
import { refuseSecretKeyInBrowser } from "./refuse-secret-key-in-browser";

/** Refusals of a browser's request: the answer carries no CORS grant, so the page cannot read it. */
export const BROWSER_REFUSALS = new Set(["secret_key_in_browser", "origin_not_allowed"]);

/**
 * The refusals that come before the rate limit, in order: a publishable key
 * off POST /v1/subscribe, a secret key from a browser, an origin off the
 * key's allowlist, an inactive workspace. Authentication does not count
 * these requests against the rate limit (authenticate.ts asks this function).
 */
export function checkKeyUse(
  key: Pick<AuthenticatedKey, "kind" | "allowedOrigins" | "billingStage">,
  use: Omit<KeyUse, "bucket">,
): void {
  if (key.kind === "publishable" && !use.allowsPublishable) {
    throw new ApiError({
      type: "permission_error",
      code: "publishable_key_not_allowed",
      message: "Publishable keys can only call POST /v1/subscribe; use a secret key.",
    });
  }
  refuseSecretKeyInBrowser(key.kind, use.origin);
  if (key.kind === "publishable") checkOrigin(key.allowedOrigins, use.origin);
  checkWorkspaceActive(key.billingStage, use.write ? "POST" : "GET");
}

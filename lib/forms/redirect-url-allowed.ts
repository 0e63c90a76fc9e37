import { canonicalOrigin } from "@/lib/api/check-origin";

/**
 * A form's thank-you page must be on a site the sender named: one of its
 * publishable key's allowed origins, or the brand's website. Anything else
 * would let anyone who posts the form send a visitor, from the service's own
 * address, wherever they like (an open redirect). Same scheme, host and port.
 */
export function redirectUrlAllowed(
  redirectUrl: string,
  allowedOrigins: readonly string[],
  brandWebsiteUrl: string | null,
): boolean {
  if (!URL.canParse(redirectUrl)) return false;
  const target = new URL(redirectUrl);
  if (target.protocol !== "https:" && target.protocol !== "http:") return false;
  const sites = allowedOrigins.map(canonicalOrigin);
  if (brandWebsiteUrl && URL.canParse(brandWebsiteUrl)) sites.push(new URL(brandWebsiteUrl).origin);
  return sites.includes(target.origin);
}

import "server-only";

import providers from "email-providers/all.json" with { type: "json" };

import { emailDomain } from "@/lib/contacts/email-address";
import { validationFailed } from "@/lib/errors";

// email-providers: a list kept up to date monthly from public sources, shipped as data (no install
// step fetching anything). It names a few reserved documentation domains (example.com), which no
// free-mail provider can hold: those are left to the sender (tests and demos use them).
const FREE_MAIL = new Set<string>(providers);
const RESERVED = /(^|\.)(example\.(com|net|org)|example|test|invalid|localhost)$/;

/** A domain whose mailboxes anyone can sign up for (gmail.com, outlook.com, …). */
export function isFreeMailDomain(domain: string): boolean {
  const name = domain.trim().toLowerCase().replace(/\.$/, "");
  return FREE_MAIL.has(name) && !RESERVED.test(name);
}

/**
 * A brand's sender must be at a domain the workspace can publish DNS records for: mail From a
 * free-mail address is neither signed by the provider nor sent from its servers, so it fails the
 * provider's DMARC check wherever it arrives (rejected or put in spam). Refused on the field.
 */
export function refuseFreeMailSender(senderEmail: string, param = "senderEmail"): void {
  const domain = emailDomain(senderEmail);
  if (!isFreeMailDomain(domain)) return;
  throw validationFailed(
    param,
    `${domain} is a free mail provider: mail sent for you from it fails the providers' checks (DMARC) and is rejected or lands in spam. Use an address at your own domain, such as news@yourcompany.com.`,
  );
}

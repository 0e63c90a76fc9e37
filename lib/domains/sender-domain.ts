import { emailDomain, normalizeEmail } from "@/lib/contacts/email-address";

// No I/O and no server-only: the dashboard's forms say the same as the pages.

/** The domain a brand's mail is signed with and must be verified: the part of its sender address after the @. */
export function senderDomainOf(senderEmail: string): string {
  return emailDomain(normalizeEmail(senderEmail)).replace(/\.$/, "");
}

/**
 * Whether a brand's mail can be signed with this domain's key: only when its sender address is at
 * exactly this hostname (DKIM's domain must be the From domain's for DMARC, and the DMARC record
 * shown is looked up at the From domain). news@example.com is not at mail.example.com.
 */
export function senderIsAtDomain(senderEmail: string, hostname: string): boolean {
  return senderDomainOf(senderEmail) === hostname.trim().toLowerCase().replace(/\.$/, "");
}

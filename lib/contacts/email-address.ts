/**
 * Email addresses as the service stores and compares them: trimmed, Unicode
 * NFC, lower-cased. At most 320 characters, local part 64, domain 255; IDN
 * domains are accepted.
 */
export function normalizeEmail(raw: string): string {
  return raw.trim().normalize("NFC").toLowerCase();
}

const LOCAL_PART = /^[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+(\.[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+)*$/u;
const DOMAIN_LABEL = /^[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?$/u;

/** The part of an address after its last `@`: what a domain suppression names (SQL: split_part(email, '@', 2)). */
export function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf("@") + 1);
}

/*
 * The same rules for an address or domain of ASCII characters, as one expression without the u flag
 * (among ASCII, \p{L} and \p{N} are the letters and digits): nearly every address is one, and an
 * import of a million rows spent a tenth of its reading in the general rules.
 */
const ASCII_LABEL = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?";
const ASCII_ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const ASCII_DOMAIN = new RegExp(`^(?:${ASCII_LABEL}\\.)+(?!\\d+$)${ASCII_LABEL}$`);
const ASCII_EMAIL = new RegExp(`^${ASCII_ATOM}(?:\\.${ASCII_ATOM})*@(?:${ASCII_LABEL}\\.)+(?!\\d+$)${ASCII_LABEL}$`);

/** Whether a normalised address is one the service accepts. */
export function isValidEmail(email: string): boolean {
  if (email.length > 320) return false;
  const at = email.lastIndexOf("@");
  if (at <= 0 || at > 64) return false;
  if (ASCII_EMAIL.test(email)) return email.length - at - 1 <= 255;
  return LOCAL_PART.test(email.slice(0, at)) && isValidDomain(emailDomain(email));
}

/** A bare hostname: dot-separated labels, at most 255 characters, no scheme, port or path. */
export function isValidDomain(domain: string): boolean {
  if (domain.length === 0 || domain.length > 255) return false;
  if (ASCII_DOMAIN.test(domain)) return true;
  const labels = domain.split(".");
  if (labels.length < 2) return false;
  if (!labels.every((label) => DOMAIN_LABEL.test(label))) return false;
  // A top-level domain is never all digits (rules out bare IPv4 addresses).
  return !/^\d+$/.test(labels.at(-1)!);
}

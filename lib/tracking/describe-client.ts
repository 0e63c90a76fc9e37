import { UAParser } from "ua-parser-js";

import { env } from "@/lib/env";

export type DeviceType = "mobile" | "tablet" | "desktop";

/** Device type and mail client (or browser) from a user agent; null when there is none to read. */
export function describeClient(userAgent: string | null): { deviceType: DeviceType | null; client: string | null } {
  if (!userAgent) return { deviceType: null, client: null };
  const result = new UAParser(userAgent).getResult();
  const type = result.device.type;
  const deviceType: DeviceType = type === "mobile" || type === "tablet" ? type : "desktop";
  return { deviceType, client: result.browser.name ?? null };
}

/**
 * Country only from an edge header the operator trusts (TRUSTED_COUNTRY_HEADER,
 * e.g. cf-ipcountry); a client could forge any other source.
 */
export function countryFrom(headers: Headers): string | null {
  const name = env().TRUSTED_COUNTRY_HEADER;
  const value = name ? headers.get(name) : null;
  return value && /^[A-Za-z]{2}$/.test(value) ? value.toUpperCase() : null;
}

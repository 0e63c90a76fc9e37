/**
 * A contact's time zone (docs/readings.md, "A contact's time zone"): an IANA name such as
 * `Europe/Berlin`, or one of its links (`US/Pacific`, `GMT`), in any case. Checked by the zone
 * database the runtime ships (ICU), the one that will turn it into a local time, and stored as that
 * database names it (`europe/berlin` → `Europe/Berlin`, `utc` → `UTC`). Offsets such as `+01:00`
 * are not time zones: they do not follow summer time. Null when the name is none it knows.
 */
export function canonicalTimeZone(name: string): string | null {
  const trimmed = name.trim();
  if (!/^[A-Za-z]/.test(trimmed) || trimmed.length > 64) return null;
  const known = resolved.get(trimmed);
  if (known !== undefined) return known;
  let zone: string | null;
  try {
    zone = new Intl.DateTimeFormat("en", { timeZone: trimmed }).resolvedOptions().timeZone;
    if (!/^[A-Za-z]/.test(zone)) zone = null;
  } catch {
    zone = null;
  }
  if (resolved.size >= RESOLVED_MAX) resolved.clear();
  resolved.set(trimmed, zone);
  return zone;
}

/**
 * Names already looked up: an import reads the same few zones on a million rows, and building a
 * formatter for each cell costs tens of microseconds. Bounded, as a file could hold any names.
 */
const resolved = new Map<string, string | null>();
const RESOLVED_MAX = 2_000;

export const TIME_ZONE_HINT = "An IANA time zone such as Europe/Berlin or America/New_York.";

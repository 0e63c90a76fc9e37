// Pure time-zone arithmetic for campaigns sent at a local time (no database): the dashboard shows the same slices.

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(zone, format);
  }
  return format;
}

/** The zone's offset from UTC at an instant, in minutes (Berlin in winter: 60; New York in summer: -240). */
export function offsetMinutes(zone: string, instant: number): number {
  const parts: Record<string, number> = {};
  for (const part of formatter(zone).formatToParts(new Date(instant)))
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return Math.round((wall - Math.floor(instant / 1000) * 1000) / 60_000);
}

/** `YYYY-MM-DD` and `HH:MM` read as if they were UTC: the wall clock's reading, in milliseconds. */
export function wallClock(date: string, time: string): number {
  const [year, month, day] = date.split("-").map(Number);
  const [hour, minute] = time.split(":").map(Number);
  return Date.UTC(year!, month! - 1, day!, hour!, minute!);
}

/**
 * The instant a zone's clocks read `time` on `date` (docs/readings.md, "Sending at a local time"), with
 * that day's offset, so summer time is whatever it is in that zone on that date. A time the clocks skip
 * (spring forward) is taken as the same time after the jump (02:30 → 03:30); a time they read twice
 * (fall back) as its first occurrence.
 */
export function zoneInstant(zone: string, date: string, time: string): Date {
  const wall = wallClock(date, time);
  // The offsets on either side of the wall time: equal unless a transition lies within a day of it.
  const offsets = [...new Set([offsetMinutes(zone, wall - 86_400_000), offsetMinutes(zone, wall + 86_400_000)])];
  const candidates = offsets
    .map((offset) => wall - offset * 60_000)
    .filter((instant) => wall - offsetMinutes(zone, instant) * 60_000 === instant);
  if (candidates.length > 0) return new Date(Math.min(...candidates));
  // Skipped by the clocks: read with the offset before the jump, the smaller one.
  return new Date(wall - Math.min(...offsets) * 60_000);
}

/** The earliest and latest offsets on Earth (Kiritimati, Baker Island): a local-time campaign spans at most 26 hours. */
export const EARLIEST_OFFSET_MINUTES = 14 * 60;
export const LATEST_OFFSET_MINUTES = -12 * 60;

/** "UTC+05:30", "UTC−03:00", "UTC" for an offset in minutes. */
export function offsetLabel(minutes: number): string {
  if (minutes === 0) return "UTC";
  const sign = minutes > 0 ? "+" : "−";
  const abs = Math.abs(minutes);
  return `UTC${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

export interface PlannedSlice {
  /** When the slice is due: its zones' HH:MM on the day. */
  dueAt: Date;
  /** The zones' offset from UTC that day, in minutes. */
  offsetMinutes: number;
  zones: string[];
}

/**
 * Zones grouped into slices: every zone whose clocks read the same time at the same instant that day
 * (Berlin, Paris and Lagos in winter) is one slice. Earliest first.
 */
export function groupZonesIntoSlices(zones: Iterable<string>, date: string, time: string): PlannedSlice[] {
  const byInstant = new Map<number, PlannedSlice>();
  const wall = wallClock(date, time);
  for (const zone of new Set(zones)) {
    const dueAt = zoneInstant(zone, date, time);
    const slice = byInstant.get(dueAt.getTime());
    if (slice) slice.zones.push(zone);
    else
      byInstant.set(dueAt.getTime(), {
        dueAt,
        offsetMinutes: Math.round((wall - dueAt.getTime()) / 60_000),
        zones: [zone],
      });
  }
  return [...byInstant.values()]
    .map((slice) => ({ ...slice, zones: slice.zones.sort() }))
    .sort((a, b) => a.dueAt.getTime() - b.dueAt.getTime());
}

import { offsetMinutes, zoneInstant } from "@/lib/campaigns/local-time-zones";

const DAY = 86_400_000;
const pad = (n: number) => String(n).padStart(2, "0");

/**
 * The first instant after `now` when the zone's clocks read `hour:minute` on one of `weekdays`
 * (0 Sunday … 6 Saturday; empty or left out: any day). The day's own offset is used, so summer time
 * is whatever it is there that day; a time the clocks skip is read as the campaigns read it
 * (zoneInstant: the same time after the jump).
 */
export function nextLocalTime(
  zone: string,
  now: Date,
  at: { hour: number; minute: number; weekdays?: readonly number[] },
): Date {
  const days = at.weekdays && at.weekdays.length > 0 ? new Set(at.weekdays) : null;
  // The zone's calendar date now, as a UTC date to step through days with.
  const wallNow = now.getTime() + offsetMinutes(zone, now.getTime()) * 60_000;
  const today = Date.UTC(
    new Date(wallNow).getUTCFullYear(),
    new Date(wallNow).getUTCMonth(),
    new Date(wallNow).getUTCDate(),
  );
  // Eight days: today's time may have passed, and the same weekday comes round a week later.
  for (let d = 0; d <= 8; d++) {
    const day = new Date(today + d * DAY);
    if (days && !days.has(day.getUTCDay())) continue;
    const date = `${day.getUTCFullYear()}-${pad(day.getUTCMonth() + 1)}-${pad(day.getUTCDate())}`;
    const instant = zoneInstant(zone, date, `${pad(at.hour)}:${pad(at.minute)}`);
    if (instant.getTime() > now.getTime()) return instant;
  }
  throw new Error("No matching local time within eight days.");
}

import { describe, expect, it } from "vitest";

import { nextLocalTime } from "./wait-until";

describe("wait_until's wake time", () => {
  it("is today's hour when it has not passed there yet, else the next day's", () => {
    // 07:00 UTC is 08:00 in Berlin in winter.
    const now = new Date("2026-01-14T07:00:00Z");
    expect(nextLocalTime("Europe/Berlin", now, { hour: 9, minute: 0 }).toISOString()).toBe("2026-01-14T08:00:00.000Z");
    expect(nextLocalTime("Europe/Berlin", now, { hour: 7, minute: 30 }).toISOString()).toBe("2026-01-15T06:30:00.000Z");
  });

  it("is the next chosen weekday, counted in the contact's zone, not UTC's", () => {
    // Wednesday 2026-01-14 23:30 in New York is already Thursday in UTC.
    const now = new Date("2026-01-15T04:30:00Z");
    // Thursday 09:00 in New York (UTC-5): the next day there.
    expect(nextLocalTime("America/New_York", now, { hour: 9, minute: 0, weekdays: [4] }).toISOString()).toBe(
      "2026-01-15T14:00:00.000Z",
    );
    // Wednesday's 09:00 has passed there: a week later.
    expect(nextLocalTime("America/New_York", now, { hour: 9, minute: 0, weekdays: [3] }).toISOString()).toBe(
      "2026-01-21T14:00:00.000Z",
    );
  });

  it("takes each day's own offset across a change of summer time", () => {
    // Saturday before Europe's clocks go forward (2026-03-29): Sunday 09:00 is at UTC+2.
    const now = new Date("2026-03-28T12:00:00Z");
    expect(nextLocalTime("Europe/Berlin", now, { hour: 9, minute: 0, weekdays: [0] }).toISOString()).toBe(
      "2026-03-29T07:00:00.000Z",
    );
  });
});

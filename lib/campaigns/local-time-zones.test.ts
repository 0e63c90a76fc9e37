import { describe, expect, it } from "vitest";

import { scheduleSchema } from "./local-time-schemas";
import { groupZonesIntoSlices, offsetLabel, zoneInstant } from "./local-time-zones";

const at = (zone: string, date: string, time = "09:00") => zoneInstant(zone, date, time).toISOString();

describe("a zone's UTC instant for a local time on a date", () => {
  it("DST is handled by computing each zone's instant for that date: New York's 09:00 is 14:00 UTC before its clocks go forward on 8 March 2026 and 13:00 UTC after", () => {
    expect(at("America/New_York", "2026-03-07")).toBe("2026-03-07T14:00:00.000Z");
    expect(at("America/New_York", "2026-03-09")).toBe("2026-03-09T13:00:00.000Z");
    // Europe goes forward three weeks later: on 10 March, Berlin is still an hour ahead of UTC.
    expect(at("Europe/Berlin", "2026-03-10")).toBe("2026-03-10T08:00:00.000Z");
    expect(at("Europe/Berlin", "2026-03-30")).toBe("2026-03-30T07:00:00.000Z");
    // The southern hemisphere: Sydney is on summer time in January, not in July.
    expect(at("Australia/Sydney", "2026-01-10")).toBe("2026-01-09T22:00:00.000Z");
    expect(at("Australia/Sydney", "2026-07-10")).toBe("2026-07-09T23:00:00.000Z");
  });

  it("a time the clocks skip is sent as the same time after the jump, and a time they read twice at its first occurrence", () => {
    expect(at("America/New_York", "2026-03-08", "02:30")).toBe("2026-03-08T07:30:00.000Z");
    expect(at("Europe/Berlin", "2026-03-29", "02:30")).toBe("2026-03-29T01:30:00.000Z");
    expect(at("America/New_York", "2026-11-01", "01:30")).toBe("2026-11-01T05:30:00.000Z");
  });

  it("the slices span at most 26 hours: Kiritimati (UTC+14) first, Baker Island's UTC−12 last", () => {
    const slices = groupZonesIntoSlices(["Etc/GMT+12", "Pacific/Kiritimati", "Asia/Kolkata"], "2026-01-10", "09:00");
    expect(slices.map((slice) => [slice.dueAt.toISOString(), offsetLabel(slice.offsetMinutes)])).toEqual([
      ["2026-01-09T19:00:00.000Z", "UTC+14:00"],
      ["2026-01-10T03:30:00.000Z", "UTC+05:30"],
      ["2026-01-10T21:00:00.000Z", "UTC−12:00"],
    ]);
    expect(slices.at(-1)!.dueAt.getTime() - slices[0]!.dueAt.getTime()).toBe(26 * 60 * 60_000);
  });
});

describe("the schedule's input", () => {
  it("a local time is HH:MM on a date that exists; anything else is refused beside its field", () => {
    expect(scheduleSchema.safeParse({ mode: "local", date: "2026-01-10", time: "09:00" }).success).toBe(true);
    const refused = (input: unknown) => [
      ...new Set(scheduleSchema.safeParse(input).error?.issues.map((issue) => issue.path.join("."))),
    ];
    expect(refused({ mode: "local", date: "2026-02-30", time: "09:00" })).toEqual(["date"]);
    expect(refused({ mode: "local", date: "2026-01-10", time: "24:00" })).toEqual(["time"]);
    expect(refused({ mode: "local", date: "", time: "9" })).toEqual(["date", "time"]);
    expect(refused({ mode: "at", at: "not a date" })).toEqual(["at"]);
  });
});

import { z } from "zod";

// Schemas only (no database): the schedule dialog checks input in the browser with the rules the CLI and the action apply.

const localDate = z
  .string({ error: "pick a date" })
  .regex(/^\d{4}-\d{2}-\d{2}$/, "pick a date")
  .refine((value) => {
    const [year, month, day] = value.split("-").map(Number);
    const date = new Date(Date.UTC(year!, month! - 1, day!));
    return date.getUTCFullYear() === year && date.getUTCMonth() === month! - 1 && date.getUTCDate() === day;
  }, "pick a date that exists");

const localTime = z
  .string({ error: "pick a time" })
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "give a time as HH:MM, from 00:00 to 23:59");

/**
 * How a campaign is scheduled: at one instant (`at`), or at a wall-clock time on a date in each
 * recipient's own time zone (`local`; docs/readings.md, "Sending at a local time").
 */
export const scheduleSchema = z.discriminatedUnion("mode", [
  z.strictObject({ mode: z.literal("at"), at: z.coerce.date({ error: "pick a date and time" }) }),
  z.strictObject({ mode: z.literal("local"), date: localDate, time: localTime }),
]);
export type ScheduleInput = z.input<typeof scheduleSchema>;
export type Schedule = z.output<typeof scheduleSchema>;

/**
 * The schedule dialog's action: the campaign and its schedule as the form sends them, every field a
 * string. Checked again with `scheduleSchema` (scheduleFromForm), so a field's error comes back beside it.
 */
export const scheduleFormSchema = z.strictObject({
  campaignId: z.string(),
  mode: z.enum(["at", "local"]),
  at: z.string().optional(),
  date: z.string().optional(),
  time: z.string().optional(),
});
export type ScheduleFormInput = z.input<typeof scheduleFormSchema>;

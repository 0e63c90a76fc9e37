"use client";

import { CalendarClock } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { toast } from "sonner";

import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { scheduleSchema, type ScheduleFormInput } from "@/lib/campaigns/local-time-schemas";
import type { ActionState } from "@/lib/dashboard/action-state";

export type ScheduleAction = (workspaceId: string, input: ScheduleFormInput) => Promise<ActionState<unknown>>;

type Mode = ScheduleFormInput["mode"];
type Errors = Partial<Record<"at" | "date" | "time" | "form", string>>;

const CHOICES: { mode: Mode; label: string; hint: string }[] = [
  { mode: "at", label: "At a time", hint: "Everyone gets it at the same moment." },
  {
    mode: "local",
    label: "At a time in each recipient's time zone",
    hint: "It goes out in slices as that hour comes in each zone, over up to 26 hours.",
  },
];

/**
 * Schedule at one instant (a date and time in the sender's own zone) or at HH:MM on a date in each
 * recipient's zone (docs/readings.md, "Sending at a local time"). The browser checks the fields with
 * the schema the server applies; either's errors show beside their field.
 */
export function ScheduleDialog({
  workspaceId,
  campaignId,
  audience,
  workspaceTimeZone,
  action,
}: {
  workspaceId: string;
  campaignId: string;
  audience: string;
  /** The zone recipients without one get. */
  workspaceTimeZone: string;
  action: ScheduleAction;
}) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [mode, setMode] = useState<Mode>("at");
  const [at, setAt] = useState("");
  const [date, setDate] = useState("");
  const [time, setTime] = useState("09:00");
  const [errors, setErrors] = useState<Errors>({});
  const [pending, startTransition] = useTransition();
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const submit = () =>
    startTransition(async () => {
      // datetime-local has no zone: the browser reads it in the sender's, and the server gets the instant.
      const instant = at ? new Date(at) : null;
      const input: ScheduleFormInput =
        mode === "at"
          ? { campaignId, mode, at: instant && !Number.isNaN(instant.getTime()) ? instant.toISOString() : "" }
          : { campaignId, mode, date, time };
      const { campaignId: _, ...schedule } = input;
      const checked = scheduleSchema.safeParse(schedule);
      if (!checked.success) {
        const found: Errors = {};
        for (const issue of checked.error.issues) {
          const field = String(issue.path[0] ?? "form") as keyof Errors;
          found[field] ??= issue.message;
        }
        return setErrors(found);
      }
      setErrors({});
      const state = await action(workspaceId, input);
      if (!state.ok) {
        const { at: atError, date: dateError, time: timeError } = state.fieldErrors;
        if (atError || dateError || timeError) return setErrors({ at: atError, date: dateError, time: timeError });
        return setErrors({ form: state.message });
      }
      setOpen(false);
      toast.success(
        mode === "at"
          ? `Scheduled for ${instant!.toLocaleString()}.`
          : `Scheduled for ${time} on ${date}, recipients' time.`,
      );
      router.refresh();
    });
  return (
    <Dialog open={open} onOpenChange={(next) => (setOpen(next), setErrors({}))}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm">
          <CalendarClock />
          Schedule
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Schedule the campaign</DialogTitle>
          <DialogDescription>
            It goes to {audience} at the time you choose. You can unschedule it until then.
          </DialogDescription>
        </DialogHeader>
        <fieldset className="grid gap-2">
          <legend className="sr-only">When it goes out</legend>
          {CHOICES.map((choice) => (
            <label
              key={choice.mode}
              className="flex cursor-pointer items-start gap-3 rounded-md border p-3 text-sm has-[:checked]:border-primary"
            >
              <input
                type="radio"
                name="schedule-mode"
                value={choice.mode}
                checked={mode === choice.mode}
                onChange={() => (setMode(choice.mode), setErrors({}))}
                className="mt-0.5 accent-primary"
              />
              <span className="grid gap-0.5">
                <span className="font-medium">{choice.label}</span>
                <span className="text-muted-foreground">{choice.hint}</span>
              </span>
            </label>
          ))}
        </fieldset>
        {mode === "at" ? (
          <Field id="schedule-at" label="Send at" hint={`Your time zone: ${timeZone}`} error={errors.at}>
            {(control) => (
              <Input {...control} type="datetime-local" value={at} onChange={(event) => setAt(event.target.value)} />
            )}
          </Field>
        ) : (
          <div className="grid gap-4 sm:grid-cols-2">
            <Field id="schedule-date" label="Date" error={errors.date}>
              {(control) => (
                <Input {...control} type="date" value={date} onChange={(event) => setDate(event.target.value)} />
              )}
            </Field>
            <Field id="schedule-time" label="Local time" error={errors.time}>
              {(control) => (
                <Input {...control} type="time" value={time} onChange={(event) => setTime(event.target.value)} />
              )}
            </Field>
            <p className="text-sm text-muted-foreground sm:col-span-2">
              Each recipient gets it at this time in their own time zone; those without one get the workspace&apos;s,{" "}
              {workspaceTimeZone}.
            </p>
          </div>
        )}
        {errors.form && (
          <p role="alert" className="text-sm text-destructive">
            {errors.form}
          </p>
        )}
        <DialogFooter>
          <Button onClick={submit} disabled={pending}>
            Schedule
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

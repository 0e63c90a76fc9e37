"use client";

import { useRouter } from "next/navigation";
import { toast } from "sonner";

import { FormError, TextField } from "@/components/forms/form-fields";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import type { ActionState } from "@/lib/dashboard/action-state";
import {
  guardrailThresholdsSchema,
  type GuardrailThresholds,
  type GuardrailThresholdsInput,
} from "@/lib/deliverability/guardrail-schemas";
import { percentText } from "@/lib/deliverability/judge-health";

type SetThresholds = (
  workspaceId: string,
  input: GuardrailThresholdsInput,
) => Promise<ActionState<GuardrailThresholds>>;

/** Each watched rate: a warning and a stop, side by side. */
const RATES = [
  { legend: "Complaints (% of delivered mail)", warn: "complaintWarnPercent", stop: "complaintStopPercent" },
  { legend: "Permanent bounces (% of delivered mail)", warn: "hardBounceWarnPercent", stop: "hardBounceStopPercent" },
] as const;

/**
 * The guardrail's thresholds for this workspace's campaigns: past a warning the campaign page and
 * the overview say so; at a stop the campaign is paused until a person resumes it.
 */
export function GuardrailSettingsCard({
  workspaceId,
  thresholds,
  defaults,
  custom,
  action,
}: {
  workspaceId: string;
  thresholds: GuardrailThresholds;
  defaults: GuardrailThresholds;
  /** Whether the workspace set its own, or runs on the defaults. */
  custom: boolean;
  action: SetThresholds;
}) {
  const router = useRouter();
  const { form, submit, formError, pending } = useActionForm({
    schema: guardrailThresholdsSchema,
    action,
    workspaceId,
    defaultValues: {
      complaintWarnPercent: String(thresholds.complaintWarnPercent),
      complaintStopPercent: String(thresholds.complaintStopPercent),
      hardBounceWarnPercent: String(thresholds.hardBounceWarnPercent),
      hardBounceStopPercent: String(thresholds.hardBounceStopPercent),
      minimumDelivered: String(thresholds.minimumDelivered),
    },
    onSuccess: () => {
      toast.success("Saved. Sending campaigns are judged by these from their next check.");
      router.refresh();
    },
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Pause on harm</CardTitle>
        <CardDescription>
          While a campaign sends, the guardrail watches its complaint and permanent-bounce rates over delivered mail,
          and its brand&apos;s over the last 24 hours. Past a warning threshold the campaign page and the overview say
          so; at a stop threshold the campaign is paused until a person resumes it.{" "}
          {custom ? "This workspace uses its own thresholds." : "This workspace uses the defaults."}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} className="grid gap-6" noValidate>
          {RATES.map((rate) => (
            <fieldset key={rate.legend} className="grid min-w-0 gap-3 rounded-md border p-4">
              <legend className="px-1 text-sm font-semibold">{rate.legend}</legend>
              <div className="grid gap-4 sm:grid-cols-2 sm:items-start">
                <TextField
                  form={form}
                  name={rate.warn}
                  label="Warn at"
                  type="text"
                  hint={`Default ${percentText(defaults[rate.warn])}`}
                />
                <TextField
                  form={form}
                  name={rate.stop}
                  label="Pause at"
                  type="text"
                  hint={`Default ${percentText(defaults[rate.stop])}`}
                />
              </div>
            </fieldset>
          ))}
          <TextField
            form={form}
            name="minimumDelivered"
            label="Judge from this many delivered mails"
            type="text"
            hint={`Below it a rate says little about a list and nothing is judged. Default ${defaults.minimumDelivered.toLocaleString("en")}.`}
          />
          <FormError message={formError} />
          <div>
            <Button type="submit" disabled={pending}>
              Save thresholds
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

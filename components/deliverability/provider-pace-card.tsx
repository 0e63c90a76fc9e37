"use client";

import { useRouter } from "next/navigation";
import { toast } from "sonner";

import { FormError } from "@/components/forms/form-fields";
import { errorText, useActionForm } from "@/components/forms/use-action-form";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { When } from "@/components/ui/when";
import type { ProviderPace } from "@/lib/campaigns/provider-pacing";
import type { ActionState } from "@/lib/dashboard/action-state";
import { providerRateSchema, type ProviderRateInput } from "@/lib/deliverability/provider-pace-schemas";

type ProviderPaceRow = ProviderPace;
type SaveRate = (workspaceId: string, input: ProviderRateInput) => Promise<ActionState<unknown>>;

const n = (value: number) => value.toLocaleString("en");

function PaceRow({ workspaceId, row, action }: { workspaceId: string; row: ProviderPaceRow; action: SaveRate }) {
  const router = useRouter();
  const { form, submit, formError, pending } = useActionForm({
    schema: providerRateSchema,
    action,
    workspaceId,
    defaultValues: { provider: row.provider, ratePerMinute: row.chosenRate === null ? "" : String(row.chosenRate) },
    onSuccess: () => {
      toast.success(`${row.label}: pace saved.`);
      router.refresh();
    },
  });
  const id = `pace-${row.provider}`;
  return (
    <li data-testid={id} className="grid gap-2 border-b pb-4 last:border-b-0 last:pb-0">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="font-medium">{row.label}</span>
        <span className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
          Now {n(row.currentRate)} per minute
          {row.slowed && <Badge variant="warning">Slowed after refusals</Badge>}
        </span>
      </div>
      {row.refusals > 0 && (
        <p className="text-sm text-muted-foreground">
          {n(row.refusals)} temporary {row.refusals === 1 ? "refusal" : "refusals"} so far, the last at{" "}
          <When at={row.refusedAt} />.
        </p>
      )}
      <form onSubmit={submit} noValidate className="flex flex-wrap items-end gap-2">
        <Field
          id={id}
          label="Sends per minute"
          hint={`Empty for the default, ${n(row.defaultRate)}.`}
          error={errorText(form.formState.errors.ratePerMinute?.message)}
          className="min-w-0 flex-1 basis-40"
        >
          {(aria) => (
            <Input
              {...aria}
              inputMode="numeric"
              placeholder={String(row.defaultRate)}
              {...form.register("ratePerMinute")}
            />
          )}
        </Field>
        <Button type="submit" variant="outline" disabled={pending} className="mb-7">
          Save
        </Button>
      </form>
      <FormError message={formError} />
    </li>
  );
}

/**
 * The workspace's sending pace at each mailbox provider: the rate it chose (or the default), the
 * rate now after any slowdown that refusals brought, and how often the provider refused.
 */
export function ProviderPaceCard({
  workspaceId,
  paces,
  action,
}: {
  workspaceId: string;
  paces: ProviderPaceRow[];
  action: SaveRate;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Pace per mailbox provider</CardTitle>
        <CardDescription>
          Campaigns go to each provider at its own pace, so one that throttles does not hold back the rest. A provider
          that answers &ldquo;try later&rdquo; gets half the pace after each refusing batch, and its pace comes back by
          itself, doubling every 10 minutes without refusals. Refused mail is tried again later; it is not a bounce.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-4" aria-label="Pace per mailbox provider">
          {paces.map((row) => (
            <PaceRow key={row.provider} workspaceId={workspaceId} row={row} action={action} />
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

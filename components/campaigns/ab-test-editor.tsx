"use client";

import { FlaskConical, Plus, X } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";

import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Field } from "@/components/ui/field";
import { Input, NativeSelect, Textarea } from "@/components/ui/input";
import {
  AB_VARIANT_LABELS,
  abTestSchema,
  DEFAULT_AB_WAIT_MINUTES,
  MAX_AB_WAIT_MINUTES,
} from "@/lib/campaigns/ab-test-schemas";
import type { ActionState } from "@/lib/dashboard/action-state";

type Dimension = "subject" | "sender_name" | "content";
type Metric = "clicks" | "human_opens";

export interface AbTestValues {
  dimension: Dimension;
  variants: string[];
  testShare: number | "everyone";
  metric: Metric;
  waitMinutes: number;
}

const DIMENSIONS: { value: Dimension; label: string }[] = [
  { value: "subject", label: "Subject" },
  { value: "sender_name", label: "Sender name" },
  { value: "content", label: "Content (HTML)" },
];
const SHARES = ["10", "20", "30", "50", "everyone"];

/**
 * The campaign editor's A/B test: what the variants differ in, the 2–3 variants, the share of the
 * audience in the test, the metric that picks the winner and the wait. Checked in the browser with
 * the schema the server and the CLI apply; errors beside their fields.
 */
export function AbTestEditor({
  workspaceId,
  campaignId,
  initial,
  defaults,
  save,
  remove,
}: {
  workspaceId: string;
  campaignId: string;
  initial: AbTestValues | null;
  /** The campaign's own subject, sender name and body: variant A starts from them. */
  defaults: { subject: string; senderName: string; html: string };
  save: (workspaceId: string, input: AbTestValues & { campaignId: string }) => Promise<ActionState<void>>;
  remove: (workspaceId: string, input: { campaignId: string }) => Promise<ActionState<void>>;
}) {
  const router = useRouter();
  const [editing, setEditing] = useState(false);
  const [dimension, setDimension] = useState<Dimension>(initial?.dimension ?? "subject");
  const [variants, setVariants] = useState<string[]>(initial?.variants ?? [defaults.subject, ""]);
  const [share, setShare] = useState(initial ? String(initial.testShare) : "20");
  const [metric, setMetric] = useState<Metric>(initial?.metric ?? "clicks");
  const [wait, setWait] = useState(String(initial?.waitMinutes ?? DEFAULT_AB_WAIT_MINUTES));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string>();
  const [pending, startTransition] = useTransition();

  const startFrom = (next: Dimension) => {
    setDimension(next);
    const first = next === "subject" ? defaults.subject : next === "sender_name" ? defaults.senderName : defaults.html;
    setVariants((current) => [first, ...current.slice(1).map(() => "")]);
  };
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const input = { campaignId, dimension, variants, testShare: share, metric, waitMinutes: wait };
    const checked = abTestSchema.safeParse({ dimension, variants, testShare: share, metric, waitMinutes: wait });
    if (!checked.success) {
      setErrors(
        Object.fromEntries(checked.error.issues.map((issue) => [issue.path.map(String).join("."), issue.message])),
      );
      return;
    }
    startTransition(async () => {
      setErrors({});
      setMessage(undefined);
      const state = await save(workspaceId, { ...input, ...checked.data });
      if (!state.ok) {
        setErrors(state.fieldErrors);
        if (Object.keys(state.fieldErrors).length === 0) setMessage(state.message);
        return;
      }
      setEditing(false);
      router.refresh();
    });
  };
  const drop = () =>
    startTransition(async () => {
      const state = await remove(workspaceId, { campaignId });
      if (!state.ok) setMessage(state.message);
      else router.refresh();
    });

  if (!editing && !initial)
    return (
      <Card data-testid="ab-test">
        <CardHeader>
          <CardTitle>A/B test</CardTitle>
        </CardHeader>
        <CardContent>
          <EmptyState
            icon={<FlaskConical />}
            title="No A/B test"
            action={
              <Button type="button" variant="outline" onClick={() => setEditing(true)}>
                <Plus />
                Add an A/B test
              </Button>
            }
          >
            Send two or three versions of the subject, the sender name or the content to a share of the audience; after
            a wait, the one with the most clicks goes to everyone else.
          </EmptyState>
        </CardContent>
      </Card>
    );
  if (!editing && initial)
    return (
      <Card data-testid="ab-test">
        <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-4">
          <div className="grid gap-1.5">
            <CardTitle>A/B test</CardTitle>
            <CardDescription>
              {DIMENSIONS.find((d) => d.value === initial.dimension)!.label},{" "}
              {initial.testShare === "everyone" ? "everyone in the test" : `${initial.testShare} % in the test`}; the
              winner by {initial.metric === "clicks" ? "clicks" : "human opens"} after{" "}
              {waitInWords(initial.waitMinutes)}.
            </CardDescription>
          </div>
          <span className="flex gap-2">
            <Button type="button" size="sm" variant="outline" onClick={() => setEditing(true)}>
              Change
            </Button>
            <Button type="button" size="sm" variant="outline" onClick={drop} disabled={pending}>
              Remove
            </Button>
          </span>
        </CardHeader>
        <CardContent>
          <ul className="grid gap-1 text-sm">
            {initial.variants.map((value, index) => (
              <li key={index} className="flex min-w-0 gap-2">
                <span className="font-medium">{AB_VARIANT_LABELS[index]}</span>
                <span className="truncate text-muted-foreground">{value}</span>
              </li>
            ))}
          </ul>
          {message && (
            <p role="alert" className="mt-2 text-sm text-destructive">
              {message}
            </p>
          )}
        </CardContent>
      </Card>
    );
  return (
    <Card data-testid="ab-test">
      <CardHeader>
        <CardTitle>A/B test</CardTitle>
        <CardDescription>
          Each person in the test share gets one variant at random. The rest wait, then get the winner; nobody gets the
          campaign twice.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <Field id="ab-dimension" label="The variants differ in" error={errors.dimension}>
            {(control) => (
              <NativeSelect
                {...control}
                value={dimension}
                onChange={(event) => startFrom(event.target.value as Dimension)}
              >
                {DIMENSIONS.map((d) => (
                  <option key={d.value} value={d.value}>
                    {d.label}
                  </option>
                ))}
              </NativeSelect>
            )}
          </Field>
          {variants.map((value, index) => (
            <div key={index} className="flex items-end gap-2">
              <Field
                id={`ab-variant-${index}`}
                label={`Variant ${AB_VARIANT_LABELS[index]}`}
                error={errors[`variants.${index}`]}
                className="min-w-0 flex-1"
              >
                {(control) =>
                  dimension === "content" ? (
                    <Textarea
                      {...control}
                      rows={5}
                      className="font-mono text-xs"
                      value={value}
                      onChange={(event) => setVariants(variants.map((v, i) => (i === index ? event.target.value : v)))}
                    />
                  ) : (
                    <Input
                      {...control}
                      value={value}
                      onChange={(event) => setVariants(variants.map((v, i) => (i === index ? event.target.value : v)))}
                    />
                  )
                }
              </Field>
              {index === 2 && (
                <Button
                  type="button"
                  variant="ghost"
                  size="icon"
                  aria-label="Remove variant C"
                  onClick={() => setVariants(variants.slice(0, 2))}
                >
                  <X />
                </Button>
              )}
            </div>
          ))}
          {errors.variants && (
            <p role="alert" className="text-sm text-destructive">
              {errors.variants}
            </p>
          )}
          {variants.length < 3 && (
            <Button
              type="button"
              variant="outline"
              size="sm"
              className="justify-self-start"
              onClick={() => setVariants([...variants, ""])}
            >
              <Plus />
              Add variant C
            </Button>
          )}
          <div className="grid gap-4 sm:grid-cols-3">
            <Field
              id="ab-share"
              label="Test share"
              error={errors.testShare}
              hint="Of the audience. Everyone: for a small audience."
            >
              {(control) => (
                <NativeSelect {...control} value={share} onChange={(event) => setShare(event.target.value)}>
                  {SHARES.map((s) => (
                    <option key={s} value={s}>
                      {s === "everyone" ? "Everyone" : `${s} %`}
                    </option>
                  ))}
                </NativeSelect>
              )}
            </Field>
            <Field
              id="ab-metric"
              label="Winner by"
              error={errors.metric}
              hint="Only people's opens: Apple Mail Privacy Protection and link scanners never count."
            >
              {(control) => (
                <NativeSelect {...control} value={metric} onChange={(event) => setMetric(event.target.value as Metric)}>
                  <option value="clicks">Clicks</option>
                  <option value="human_opens">Opens</option>
                </NativeSelect>
              )}
            </Field>
            <Field
              id="ab-wait"
              label="Wait (minutes)"
              error={errors.waitMinutes}
              hint={`After the test share is sent; up to ${MAX_AB_WAIT_MINUTES}.`}
            >
              {(control) => (
                <Input
                  {...control}
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={MAX_AB_WAIT_MINUTES}
                  value={wait}
                  onChange={(event) => setWait(event.target.value)}
                />
              )}
            </Field>
          </div>
          {message && (
            <p role="alert" className="text-sm text-destructive">
              {message}
            </p>
          )}
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={pending}>
              Save the A/B test
            </Button>
            <Button type="button" variant="outline" onClick={() => setEditing(false)}>
              Cancel
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

export function waitInWords(minutes: number): string {
  if (minutes % 60 === 0) return minutes === 60 ? "1 hour" : `${minutes / 60} hours`;
  return `${minutes} minutes`;
}

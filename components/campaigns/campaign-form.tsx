"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, type FocusEvent } from "react";
import type { UseFormReturn } from "react-hook-form";
import { toast } from "sonner";
import type { z } from "zod";

import { CheckboxField, FormError, SelectField, TextField } from "@/components/forms/form-fields";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { campaignFormSchema } from "@/lib/campaigns/campaign-form-schema";
import type { ActionState } from "@/lib/dashboard/action-state";
import { STARTER_DOCUMENT } from "@/lib/email-blocks/email-extensions";

import { MailBodyFields } from "./mail-body-fields";
import { MergeTagGaps, type CountMissingAction } from "./merge-tag-gaps";
import { MergeTagPicker } from "./merge-tag-picker";

type Input = z.input<typeof campaignFormSchema>;
type Option = { id: string; name: string };
type TopicOption = Option & { brandId: string };
type TaggedField = "subject" | "previewText" | "html" | "text";

/**
 * A campaign's content and audience, for a new campaign and for editing a
 * draft or a scheduled one. Unknown merge tags are refused by the server next
 * to the field that holds them, as the API and the CLI refuse them.
 */
export function CampaignForm({
  workspaceId,
  brands,
  topics,
  lists,
  segments,
  attributes,
  initial,
  action,
  countMissing,
  submitLabel,
  autosave = false,
}: {
  workspaceId: string;
  brands: Option[];
  topics: TopicOption[];
  lists: Option[];
  segments: Option[];
  attributes: string[];
  initial: Input;
  action: (workspaceId: string, input: Input) => Promise<ActionState<{ campaignId: string }>>;
  /** How many of the audience have no value for each merge tag used (they will be skipped). */
  countMissing: CountMissingAction;
  submitLabel: string;
  /** Save changes by themselves a moment after the sender stops typing (an existing draft). */
  autosave?: boolean;
}) {
  const router = useRouter();
  const { form, submit, formError, pending } = useActionForm({
    schema: campaignFormSchema,
    action,
    workspaceId,
    defaultValues: { ...initial, document: initial.document ?? (initial.html ? null : STARTER_DOCUMENT) },
    onSuccess: ({ campaignId }) => {
      toast.success("Campaign saved.");
      router.push(`/w/${workspaceId}/campaigns/${campaignId}`);
      router.refresh();
    },
  });
  const saved = useAutosave(form, autosave, (values) => action(workspaceId, values));
  const brandId = form.watch("brandId");
  const brandTopics = topics.filter((topic) => topic.brandId === brandId);
  const segmentId = form.watch("segmentId");

  // The merge-tag picker takes focus away: remember where the cursor was in the field it left, and put it back after the tag.
  const formRef = useRef<HTMLFormElement>(null);
  const cursor = useRef<{ field: TaggedField; start: number; end: number }>({ field: "html", start: -1, end: -1 });
  const onBlur = (event: FocusEvent<HTMLFormElement>) => {
    const target = event.target as EventTarget as HTMLInputElement | HTMLTextAreaElement;
    const field = target.name;
    if (field === "subject" || field === "previewText" || field === "html" || field === "text")
      cursor.current = { field, start: target.selectionStart ?? -1, end: target.selectionEnd ?? -1 };
  };
  const insert = (field: TaggedField, tag: string) => {
    const value = String(form.getValues(field) ?? "");
    const { start, end } =
      cursor.current.field === field && cursor.current.start >= 0
        ? cursor.current
        : { start: value.length, end: value.length };
    form.setValue(field, `${value.slice(0, start)}${tag}${value.slice(end)}`, { shouldDirty: true });
    cursor.current = { field, start: start + tag.length, end: start + tag.length };
  };
  const refocus = (field: TaggedField) => {
    const element = formRef.current?.elements.namedItem(field);
    if (!(element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement)) return;
    element.focus();
    const at = cursor.current.field === field && cursor.current.end >= 0 ? cursor.current.end : element.value.length;
    element.setSelectionRange(at, at);
  };

  return (
    <form
      ref={formRef}
      onSubmit={submit}
      onBlur={onBlur}
      className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]"
      noValidate
    >
      <div className="grid content-start gap-6">
        <Card>
          <CardHeader>
            <CardTitle>Message</CardTitle>
            <CardDescription>What subscribers see in their inbox.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4">
            <div className="grid gap-2">
              <div className="flex justify-end">
                <MergeTagPicker
                  attributes={attributes}
                  onPick={(tag) => insert("subject", tag)}
                  returnFocus={() => refocus("subject")}
                  label="Merge tag in subject"
                />
              </div>
              <TextField form={form} name="subject" label="Subject" />
            </div>
            <TextField
              form={form}
              name="previewText"
              label="Preview text (optional)"
              optional
              hint="Shown after the subject in most inboxes."
            />
            <MailBodyFields
              form={form}
              workspaceId={workspaceId}
              attributes={attributes}
              initialMode={initial.document || !initial.html ? "blocks" : "html"}
              initialDocument={initial.document}
              blocksHint="The unsubscribe and preference links and your postal address are added below it when the mail is sent. The plain-text part is written from it."
              htmlHint="The unsubscribe and preference links and your postal address are added below it when the mail is sent."
              onPickTag={(tag) => insert("html", tag)}
              returnFocus={() => refocus("html")}
            />
            <MergeTagGaps form={form} workspaceId={workspaceId} count={countMissing} />
          </CardContent>
        </Card>
      </div>
      <div className="grid content-start gap-6">
        <Card>
          <CardHeader>
            <CardTitle>Audience</CardTitle>
            <CardDescription>
              The confirmed subscribers of one topic, or of those the members of one list.
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4">
            <TextField form={form} name="name" label="Campaign name" hint="For you; subscribers do not see it." />
            <SelectField
              form={form}
              name="brandId"
              label="Brand"
              options={brands.map((brand) => ({ value: brand.id, label: brand.name }))}
            />
            <SelectField
              form={form}
              name="topicId"
              label="Topic"
              options={[
                { value: "", label: brandTopics.length ? "Choose a topic" : "This brand has no topic yet" },
                ...brandTopics.map((topic) => ({ value: topic.id, label: topic.name })),
              ]}
            />
            <SelectField
              form={form}
              name="listId"
              label="Only members of list"
              options={[
                { value: "", label: "Everyone subscribed to the topic" },
                ...lists.map((list) => ({ value: list.id, label: list.name })),
              ]}
            />
            <SelectField
              form={form}
              name="segmentId"
              label="Segment"
              hint="A saved rule that narrows the audience further, evaluated when sending starts."
              options={[
                { value: "", label: segments.length ? "No segment" : "No segment (none saved yet)" },
                ...segments.map((segment) => ({ value: segment.id, label: segment.name })),
              ]}
            />
            {segmentId ? (
              <SelectField
                form={form}
                name="segmentMode"
                label="Use the segment to"
                options={[
                  { value: "include", label: "Send only to those it matches" },
                  { value: "exclude", label: "Leave out those it matches" },
                ]}
              />
            ) : null}
            <CheckboxField
              form={form}
              name="includeInactive"
              label="Include inactive contacts"
              hint="Send to the people your workspace's sunset leaves out as inactive, this once."
            />
          </CardContent>
        </Card>
        <FormError message={formError} />
        <Button type="submit" disabled={pending}>
          {pending ? "Saving…" : submitLabel}
        </Button>
        {autosave && (
          <p role="status" className="text-center text-sm text-muted-foreground">
            {saved}
          </p>
        )}
      </div>
    </form>
  );
}

const AUTOSAVE_PAUSE_MS = 1_500;

/**
 * Saves the form a moment after its last change, while it is valid; says
 * where things stand. A refusal (an unknown merge tag) waits for the next
 * change; Save shows it next to its field.
 */
function useAutosave(
  form: UseFormReturn<Input>,
  enabled: boolean,
  save: (values: Input) => Promise<ActionState<unknown>>,
): string {
  const [status, setStatus] = useState("Changes are saved as you go.");
  // The latest save, without restarting the pause on every render.
  const saveRef = useRef(save);
  useEffect(() => {
    saveRef.current = save;
  });
  useEffect(() => {
    if (!enabled) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const subscription = form.watch(() => {
      clearTimeout(timer);
      timer = setTimeout(async () => {
        const values = form.getValues();
        if (!campaignFormSchema.safeParse(values).success)
          return setStatus("Not saved yet: some fields need attention.");
        setStatus("Saving…");
        const state = await saveRef.current(values);
        setStatus(
          state.ok
            ? `All changes saved at ${new Date().toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}.`
            : `Not saved: ${state.message}`,
        );
      }, AUTOSAVE_PAUSE_MS);
    });
    return () => {
      clearTimeout(timer);
      subscription.unsubscribe();
    };
  }, [enabled, form]);
  return status;
}

type FormProps = Omit<Parameters<typeof CampaignForm>[0], "action" | "submitLabel">;

/** The form for a draft or scheduled campaign: the same fields, saved onto that campaign. */
export function EditCampaignForm({
  campaignId,
  action,
  ...props
}: FormProps & {
  campaignId: string;
  action: (workspaceId: string, input: Input & { campaignId: string }) => Promise<ActionState<{ campaignId: string }>>;
}) {
  return (
    <CampaignForm
      {...props}
      action={(workspaceId, input) => action(workspaceId, { ...input, campaignId })}
      submitLabel="Save changes"
      autosave
    />
  );
}

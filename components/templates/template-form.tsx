"use client";

import type { JSONContent } from "@tiptap/react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useRef, useState, type FocusEvent } from "react";
import { toast } from "sonner";
import { MergeTagPicker } from "@/components/campaigns/merge-tag-picker";
import { BlockEditor } from "@/components/campaigns/block-editor";
import { FormError, TextAreaField, TextField } from "@/components/forms/form-fields";
import { errorText, useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import type { ActionState } from "@/lib/dashboard/action-state";
import { STARTER_DOCUMENT } from "@/lib/email-blocks/email-extensions";
import { updateTemplateSchema, type UpdateTemplateInput } from "@/lib/templates/template-schemas";

/**
 * A template's name and body, in the campaign's block editor or as HTML.
 * Switching keeps what the other mode held, as in the campaign form.
 */
export function TemplateForm({
  workspaceId,
  attributes,
  initial,
  action,
}: {
  workspaceId: string;
  attributes: string[];
  initial: { templateId: string; name: string; document: Record<string, unknown> | null; html: string; text: string };
  action: (workspaceId: string, input: UpdateTemplateInput) => Promise<ActionState<{ templateId: string }>>;
}) {
  const router = useRouter();
  const detail = `/w/${workspaceId}/templates/${initial.templateId}`;
  const { form, submit, formError, pending } = useActionForm({
    schema: updateTemplateSchema,
    action,
    workspaceId,
    defaultValues: { ...initial, html: initial.document ? "" : initial.html, text: initial.document ? "" : initial.text },
    onSuccess: () => {
      toast.success("Template saved.");
      router.push(detail);
      router.refresh();
    },
  });
  const [mode, setMode] = useState<"blocks" | "html">(initial.document ? "blocks" : "html");
  const [document, setDocument] = useState<JSONContent>((initial.document as JSONContent | null) ?? STARTER_DOCUMENT);
  const switchMode = (next: "blocks" | "html") => {
    setMode(next);
    form.setValue("document", next === "blocks" ? document : null, { shouldDirty: true });
  };
  const bodyError = errorText(form.formState.errors.document?.message) ?? (mode === "blocks" ? errorText(form.formState.errors.html?.message) : undefined);

  // The merge-tag picker takes focus away: remember where the cursor was in the HTML, and put it back after the tag.
  const formRef = useRef<HTMLFormElement>(null);
  const cursor = useRef({ start: -1, end: -1 });
  const onBlur = (event: FocusEvent<HTMLFormElement>) => {
    const target = event.target as EventTarget as HTMLTextAreaElement;
    if (target.name === "html") cursor.current = { start: target.selectionStart ?? -1, end: target.selectionEnd ?? -1 };
  };
  const insert = (tag: string) => {
    const value = String(form.getValues("html") ?? "");
    const { start, end } = cursor.current.start >= 0 ? cursor.current : { start: value.length, end: value.length };
    form.setValue("html", `${value.slice(0, start)}${tag}${value.slice(end)}`, { shouldDirty: true });
    cursor.current = { start: start + tag.length, end: start + tag.length };
  };
  const refocus = () => {
    const element = formRef.current?.elements.namedItem("html");
    if (!(element instanceof HTMLTextAreaElement)) return;
    element.focus();
    const at = cursor.current.end >= 0 ? cursor.current.end : element.value.length;
    element.setSelectionRange(at, at);
  };

  return (
    <form ref={formRef} onSubmit={submit} onBlur={onBlur} className="grid gap-6" noValidate>
      <Card>
        <CardHeader>
          <CardTitle>Template</CardTitle>
          <CardDescription>A campaign started from it gets this body; its subject, brand and audience are chosen there.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <TextField form={form} name="name" label="Template name" />
          <div role="group" aria-label="Write the body as" className="inline-flex w-fit gap-1 rounded-md border p-1">
            {(["blocks", "html"] as const).map((value) => (
              <Button key={value} type="button" size="sm" variant={mode === value ? "secondary" : "ghost"} aria-pressed={mode === value} onClick={() => switchMode(value)}>
                {value === "blocks" ? "Blocks" : "HTML"}
              </Button>
            ))}
          </div>
          {mode === "blocks" ? (
            <div className="grid gap-2">
              <Label id="body-label">Body</Label>
              <BlockEditor
                workspaceId={workspaceId}
                initial={document}
                attributes={attributes}
                invalid={Boolean(bodyError)}
                describedBy={bodyError ? "body-error" : "body-hint"}
                onChange={(changed) => {
                  setDocument(changed);
                  form.setValue("document", changed, { shouldDirty: true });
                }}
              />
              <p id="body-hint" className="text-sm text-muted-foreground">
                The footer block marks where the unsubscribe and preference links and your postal address go; without it they end the mail.
              </p>
              {bodyError && (
                <p id="body-error" role="alert" className="text-sm text-destructive">
                  {bodyError}
                </p>
              )}
            </div>
          ) : (
            <>
              <div className="grid gap-2">
                <div className="flex justify-end">
                  <MergeTagPicker attributes={attributes} onPick={insert} returnFocus={refocus} label="Merge tag in body" />
                </div>
                <TextAreaField form={form} name="html" label="Body (HTML)" rows={16} hint="The unsubscribe and preference links and your postal address are added below it when a campaign is sent." />
              </div>
              <TextAreaField form={form} name="text" label="Plain-text part (optional)" rows={5} hint="For mail clients that do not show HTML. Leave it empty to send the HTML part only." />
            </>
          )}
        </CardContent>
      </Card>
      <FormError message={formError} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={pending}>
          {pending ? "Saving…" : "Save template"}
        </Button>
        <Button asChild variant="ghost">
          <Link href={detail}>Cancel</Link>
        </Button>
      </div>
    </form>
  );
}

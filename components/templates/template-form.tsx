"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useRef, type FocusEvent } from "react";
import { toast } from "sonner";

import { MailBodyFields } from "@/components/campaigns/mail-body-fields";
import { FormError, TextField } from "@/components/forms/form-fields";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import type { ActionState } from "@/lib/dashboard/action-state";
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
    defaultValues: {
      ...initial,
      html: initial.document ? "" : initial.html,
      text: initial.document ? "" : initial.text,
    },
    onSuccess: () => {
      toast.success("Template saved.");
      router.push(detail);
      router.refresh();
    },
  });

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
          <CardDescription>
            A campaign started from it gets this body; its subject, brand and audience are chosen there.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <TextField form={form} name="name" label="Template name" />
          <MailBodyFields
            form={form}
            workspaceId={workspaceId}
            attributes={attributes}
            initialMode={initial.document ? "blocks" : "html"}
            initialDocument={initial.document}
            blocksHint="The footer block marks where the unsubscribe and preference links and your postal address go; without it they end the mail."
            htmlHint="The unsubscribe and preference links and your postal address are added below it when a campaign is sent."
            onPickTag={insert}
            returnFocus={refocus}
          />
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

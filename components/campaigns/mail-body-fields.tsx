"use client";

import type { JSONContent } from "@tiptap/react";
import { useState } from "react";
import type { UseFormReturn } from "react-hook-form";

import { TextAreaField } from "@/components/forms/form-fields";
import { errorText } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { STARTER_DOCUMENT } from "@/lib/email-blocks/email-extensions";

import { BlockEditor } from "./block-editor";
import { MergeTagPicker } from "./merge-tag-picker";

/** The fields of a form that holds a mail's body: a campaign's or a template's. */
interface BodyValues {
  html: string;
  text?: unknown;
  document?: Record<string, unknown> | null;
}

type Mode = "blocks" | "html";

/**
 * A mail's body, written in blocks (a document) or as HTML with an optional plain-text part.
 * Switching keeps what the other mode held: only the chosen one is sent.
 */
export function MailBodyFields<V extends BodyValues>({
  form: typedForm,
  workspaceId,
  attributes,
  initialMode,
  initialDocument,
  blocksHint,
  htmlHint,
  onPickTag,
  returnFocus,
}: {
  form: UseFormReturn<V>;
  workspaceId: string;
  attributes: string[];
  initialMode: Mode;
  initialDocument: Record<string, unknown> | null | undefined;
  blocksHint: string;
  htmlHint: string;
  /** Inserts a merge tag where the cursor was in the HTML. */
  onPickTag: (tag: string) => void;
  returnFocus: () => void;
}) {
  // react-hook-form cannot name a field of a generic form; every form given here has these three.
  const form = typedForm as unknown as UseFormReturn<BodyValues>;
  const [mode, setMode] = useState<Mode>(initialMode);
  const [document, setDocument] = useState<JSONContent>(
    (initialDocument as JSONContent | null | undefined) ?? STARTER_DOCUMENT,
  );
  const switchMode = (next: Mode) => {
    setMode(next);
    form.setValue("document", next === "blocks" ? document : null, { shouldDirty: true });
  };
  const bodyError =
    errorText(form.formState.errors.document?.message) ??
    (mode === "blocks" ? errorText(form.formState.errors.html?.message) : undefined);

  return (
    <>
      <div role="group" aria-label="Write the body as" className="inline-flex w-fit gap-1 rounded-md border p-1">
        {(["blocks", "html"] as const).map((value) => (
          <Button
            key={value}
            type="button"
            size="sm"
            variant={mode === value ? "secondary" : "ghost"}
            aria-pressed={mode === value}
            onClick={() => switchMode(value)}
          >
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
            {blocksHint}
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
              <MergeTagPicker
                attributes={attributes}
                onPick={onPickTag}
                returnFocus={returnFocus}
                label="Merge tag in body"
              />
            </div>
            <TextAreaField form={form} name="html" label="Body (HTML)" rows={16} hint={htmlHint} />
          </div>
          <TextAreaField
            form={form}
            name="text"
            label="Plain-text part (optional)"
            rows={5}
            hint="For mail clients that do not show HTML. Leave it empty to send the HTML part only."
          />
        </>
      )}
    </>
  );
}

"use client";

import { ATTRIBUTE_TYPE_OPTIONS, type DefineAttribute } from "@/components/attributes/define-attribute-dialog";
import { FormError, SelectField, TextField } from "@/components/forms/form-fields";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { defineAttributeSchema, guessAttributeType, type AttributeKind } from "@/lib/contacts/attribute-schemas";
import { normaliseName } from "@/lib/imports/column-matching";

/**
 * Defines a custom attribute for one column, inside the mapping step: the key starts as the column's
 * normalised name, the type as the one its first cells suggest. The same check and action as the
 * attributes screen; a refusal shows beside its field and changes nothing. Not a <form>: it sits
 * inside the mapping's, so Enter defines the attribute rather than running the dry run.
 */
export function NewAttributeForm({
  workspaceId,
  column,
  cells,
  action,
  onDefined,
  onCancel,
}: {
  workspaceId: string;
  column: string;
  cells: string[];
  action: DefineAttribute;
  onDefined: (attribute: { key: string; type: AttributeKind }) => void;
  onCancel: () => void;
}) {
  const { form, submit, formError, pending } = useActionForm({
    schema: defineAttributeSchema,
    action,
    workspaceId,
    defaultValues: { key: normaliseName(column).slice(0, 64), type: guessAttributeType(cells) },
    onSuccess: onDefined,
  });
  return (
    <div
      role="group"
      aria-label={`New attribute for column ${column}`}
      className="mt-2 grid gap-3 rounded-md border bg-muted/40 p-3"
      onKeyDown={(event) => {
        if (event.key !== "Enter" || !(event.target instanceof HTMLInputElement)) return;
        event.preventDefault();
        void submit();
      }}
    >
      <TextField form={form} name="key" label="Key" hint="Lower-case letters, digits and _; it cannot be renamed." />
      <SelectField form={form} name="type" label="Type" options={ATTRIBUTE_TYPE_OPTIONS} />
      <FormError message={formError} />
      <div className="flex flex-wrap gap-2">
        <Button type="button" size="sm" disabled={pending} onClick={() => void submit()}>
          {pending ? "Creating…" : "Create and map"}
        </Button>
        <Button type="button" size="sm" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </div>
  );
}

"use client";

import { get, type FieldValues, type Path, type UseFormReturn } from "react-hook-form";

import { errorText } from "@/components/forms/use-action-form";
import { Field } from "@/components/ui/field";
import { Input, NativeSelect } from "@/components/ui/input";
import { attributeFromText, type AttributeKind, type AttributeScalar } from "@/lib/contacts/attribute-schemas";

export interface AttributeDefinition {
  key: string;
  type: AttributeKind;
}

const PLAIN_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * What a field holds, as the API takes it: a number field's text becomes a number when it reads as
 * one (otherwise the text goes as typed, and is refused beside the field as not a number), a
 * yes/no choice a boolean. An empty field is `empty`: null clears the value, undefined leaves it out.
 */
function valueOf(type: AttributeKind, text: unknown, empty: null | undefined): AttributeScalar | null | undefined {
  if (typeof text !== "string") return text as AttributeScalar | null | undefined;
  const trimmed = text.trim();
  if (trimmed === "") return empty;
  if (type === "boolean") return trimmed === "true";
  if (type === "number") return attributeFromText("number", trimmed) ?? trimmed;
  return type === "date" ? trimmed : text;
}

/**
 * One field per custom attribute of the workspace, typed as it was defined: text, a number, a
 * date picker, or yes/no. The values are checked with the API's rules, and a refusal shows
 * beside its field (`attributes.<key>`).
 */
export function AttributeFields<V extends FieldValues>({
  form,
  definitions,
  empty,
}: {
  form: UseFormReturn<V>;
  definitions: AttributeDefinition[];
  /** null: an emptied field clears the value (editing); undefined: it is not sent (adding). */
  empty: null | undefined;
}) {
  if (definitions.length === 0) return null;
  return (
    <fieldset className="grid gap-4">
      <legend className="mb-1 text-sm font-medium">Custom fields</legend>
      {definitions.map(({ key, type }) => {
        const name = `attributes.${key}` as Path<V>;
        const id = `field-attributes-${key}`;
        const error = errorText((get(form.formState.errors, name) as { message?: unknown } | undefined)?.message);
        const registered = form.register(name, { setValueAs: (text) => valueOf(type, text, empty) });
        const current: unknown = form.getValues(name);
        return (
          <Field key={key} id={id} label={key} error={error}>
            {(aria) =>
              type === "boolean" ? (
                <NativeSelect {...aria} {...registered}>
                  <option value="">—</option>
                  <option value="true">Yes</option>
                  <option value="false">No</option>
                </NativeSelect>
              ) : (
                <Input
                  {...aria}
                  // A stored date with a time is edited as text, so the time is not lost.
                  type={type === "date" && (current == null || PLAIN_DATE.test(String(current))) ? "date" : "text"}
                  inputMode={type === "number" ? "decimal" : undefined}
                  placeholder={type === "date" ? "YYYY-MM-DD" : undefined}
                  {...registered}
                />
              )
            }
          </Field>
        );
      })}
    </fieldset>
  );
}

/** A contact's stored attributes as the form's starting values: every defined key, empty ones as `empty`. */
export function attributeDefaults(
  definitions: AttributeDefinition[],
  stored: Record<string, AttributeScalar>,
  empty: null | undefined,
): Record<string, AttributeScalar | null | undefined> {
  return Object.fromEntries(definitions.map(({ key }) => [key, Object.hasOwn(stored, key) ? stored[key] : empty]));
}

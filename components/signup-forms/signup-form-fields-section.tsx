"use client";

import type { ComponentProps } from "react";

import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Input, NativeSelect } from "@/components/ui/input";
import type { SignupFormInput } from "@/lib/forms/signup-form-schemas";

import type { SignupFormEditorOptions } from "./signup-form-editor-options";
import { SectionField, type SignupFormSectionProps } from "./signup-form-section";

type FieldMode = "off" | "optional" | "required";

const MODES: { value: FieldMode; label: string }[] = [
  { value: "off", label: "Not asked" },
  { value: "optional", label: "Optional" },
  { value: "required", label: "Required" },
];

/** Whether a field is asked, and if so whether it must be filled in. */
function ModeSelect({
  mode,
  onChange,
  ...aria
}: { mode: FieldMode; onChange: (mode: FieldMode) => void } & Omit<
  ComponentProps<typeof NativeSelect>,
  "value" | "onChange"
>) {
  return (
    <NativeSelect {...aria} value={mode} onChange={(event) => onChange(event.target.value as FieldMode)}>
      {MODES.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </NativeSelect>
  );
}

/** What the form asks besides the email address: names, and any of the workspace's contact attributes. */
export function SignupFormFieldsSection({
  values,
  errors,
  update,
  attributes,
}: SignupFormSectionProps & { attributes: SignupFormEditorOptions["attributes"] }) {
  const fields = (change: Partial<SignupFormInput["fields"]>) => update({ fields: { ...values.fields, ...change } });
  const attributeMode = (key: string): FieldMode => {
    const asked = values.fields.attributes.find((attribute) => attribute.key === key);
    return asked ? (asked.required ? "required" : "optional") : "off";
  };
  const setAttribute = (key: string, mode: FieldMode, label?: string) => {
    const rest = values.fields.attributes.filter((attribute) => attribute.key !== key);
    const current = values.fields.attributes.find((attribute) => attribute.key === key);
    if (mode === "off") return fields({ attributes: rest });
    const next = {
      key,
      label: label ?? current?.label ?? key.replaceAll("_", " ").replace(/^./, (first) => first.toUpperCase()),
      required: mode === "required",
    };
    fields({
      attributes: current
        ? values.fields.attributes.map((attribute) => (attribute.key === key ? next : attribute))
        : [...rest, next],
    });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Fields</CardTitle>
        <CardDescription>
          The email address is always asked. Ask only what you will use: every field costs signups.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4 sm:grid-cols-2">
        <SectionField id="fields.firstName" label="First name" errors={errors}>
          {(aria) => (
            <ModeSelect {...aria} mode={values.fields.firstName} onChange={(mode) => fields({ firstName: mode })} />
          )}
        </SectionField>
        <SectionField id="fields.lastName" label="Last name" errors={errors}>
          {(aria) => (
            <ModeSelect {...aria} mode={values.fields.lastName} onChange={(mode) => fields({ lastName: mode })} />
          )}
        </SectionField>
        {attributes.map((attribute) => {
          const mode = attributeMode(attribute.key);
          const label = values.fields.attributes.find((asked) => asked.key === attribute.key)?.label ?? "";
          return (
            <div key={attribute.key} className="grid gap-2 rounded-md border p-3 sm:col-span-2 sm:grid-cols-2">
              <Field id={`form-attribute-${attribute.key}`} label={`Attribute ${attribute.key} (${attribute.type})`}>
                {(aria) => <ModeSelect {...aria} mode={mode} onChange={(next) => setAttribute(attribute.key, next)} />}
              </Field>
              {mode !== "off" && (
                <Field id={`form-attribute-${attribute.key}-label`} label="Label on the form">
                  {(aria) => (
                    <Input
                      {...aria}
                      value={label}
                      onChange={(event) => setAttribute(attribute.key, mode, event.target.value)}
                    />
                  )}
                </Field>
              )}
            </div>
          );
        })}
        {errors["fields.attributes"] && (
          <p role="alert" className="text-sm text-destructive sm:col-span-2">
            {errors["fields.attributes"]}
          </p>
        )}
      </CardContent>
    </Card>
  );
}

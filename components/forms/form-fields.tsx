"use client";

import type { ReactNode } from "react";
import { get, type FieldValues, type Path, type UseFormReturn } from "react-hook-form";

import { Field } from "@/components/ui/field";
import { Checkbox, Input, NativeSelect, Textarea } from "@/components/ui/input";
import { Label } from "@/components/ui/label";

import { errorText } from "./use-action-form";

interface FieldProps<V extends FieldValues> {
  form: UseFormReturn<V>;
  name: Path<V>;
  label: ReactNode;
  hint?: ReactNode;
}

function fieldError<V extends FieldValues>(form: UseFormReturn<V>, name: Path<V>): string | undefined {
  const error: { message?: unknown } | { message?: unknown }[] | undefined = get(form.formState.errors, name);
  // A list field (origins) carries its errors per item.
  const message = Array.isArray(error) ? error.find((item) => item?.message)?.message : error?.message;
  return errorText(message);
}

function fieldId(name: string): string {
  return `field-${name.replaceAll(".", "-")}`;
}

// An optional field left empty is not sent, rather than sent as "" (which a URL or colour field refuses).
const emptyAsUnset = (value: unknown) => (value === "" ? undefined : value);

export function TextField<V extends FieldValues>({
  form,
  name,
  label,
  hint,
  type = "text",
  placeholder,
  autoComplete,
  optional = false,
}: FieldProps<V> & { type?: string; placeholder?: string; autoComplete?: string; optional?: boolean }) {
  return (
    <Field id={fieldId(name)} label={label} hint={hint} error={fieldError(form, name)}>
      {(aria) => (
        <Input
          {...aria}
          type={type}
          placeholder={placeholder}
          autoComplete={autoComplete}
          {...form.register(name, optional ? { setValueAs: emptyAsUnset } : undefined)}
        />
      )}
    </Field>
  );
}

export function TextAreaField<V extends FieldValues>({
  form,
  name,
  label,
  hint,
  rows = 3,
}: FieldProps<V> & { rows?: number }) {
  return (
    <Field id={fieldId(name)} label={label} hint={hint} error={fieldError(form, name)}>
      {(aria) => <Textarea {...aria} rows={rows} {...form.register(name)} />}
    </Field>
  );
}

export function SelectField<V extends FieldValues>({
  form,
  name,
  label,
  hint,
  options,
}: FieldProps<V> & { options: { value: string; label: string }[] }) {
  return (
    <Field id={fieldId(name)} label={label} hint={hint} error={fieldError(form, name)}>
      {(aria) => (
        <NativeSelect {...aria} {...form.register(name)}>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </NativeSelect>
      )}
    </Field>
  );
}

export function CheckboxField<V extends FieldValues>({ form, name, label, hint }: FieldProps<V>) {
  const id = fieldId(name);
  const error = fieldError(form, name);
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id} className="font-normal">
        <Checkbox id={id} aria-invalid={error ? true : undefined} {...form.register(name)} />
        {label}
      </Label>
      {hint && <p className="pl-6 text-sm text-muted-foreground">{hint}</p>}
      {error && (
        <p role="alert" className="pl-6 text-sm text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}

export function FormError({ message }: { message?: string }) {
  if (!message) return null;
  return (
    <p
      role="alert"
      className="rounded-md border border-destructive/40 bg-destructive/5 px-3 py-2 text-sm text-destructive"
    >
      {message}
    </p>
  );
}

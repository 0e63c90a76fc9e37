"use client";

import type { ComponentProps, ReactNode } from "react";

import { Field } from "@/components/ui/field";
import type { SignupFormInput } from "@/lib/forms/signup-form-schemas";

/** Every section edits the one form value the editor holds; errors are keyed by the schema path, e.g. "texts.title". */
export interface SignupFormSectionProps {
  values: SignupFormInput;
  errors: Record<string, string>;
  update: (change: Partial<SignupFormInput>) => void;
}

/** A field whose id and error follow its schema path, so a server-side error lands on the control it concerns. */
export function SectionField({
  id,
  label,
  hint,
  errors,
  children,
}: {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  errors: Record<string, string>;
  children: ComponentProps<typeof Field>["children"];
}) {
  return (
    <Field id={`form-${id.replaceAll(".", "-")}`} label={label} hint={hint} error={errors[id]}>
      {children}
    </Field>
  );
}

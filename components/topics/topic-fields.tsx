"use client";

import type { FieldValues, Path, UseFormReturn } from "react-hook-form";

import { CheckboxField, TextAreaField, TextField } from "@/components/forms/form-fields";

/** Name, description and confirmation, with the consent assertion once confirmation is off. */
export function TopicFields<V extends FieldValues>({ form }: { form: UseFormReturn<V> }) {
  const requiresConfirmation = form.watch("requiresConfirmation" as Path<V>);
  return (
    <>
      <TextField
        form={form}
        name={"name" as Path<V>}
        label="Name"
        hint="Shown to subscribers on the unsubscribe and preference pages."
      />
      <TextAreaField
        form={form}
        name={"description" as Path<V>}
        label="Description"
        hint="Optional. What subscribers get, and how often."
        rows={2}
      />
      <CheckboxField
        form={form}
        name={"requiresConfirmation" as Path<V>}
        label="Ask new subscribers to confirm (double opt-in)"
        hint="Recommended. A confirmation mail goes out from the brand and the subscription counts once its link is clicked."
      />
      {requiresConfirmation === false && (
        <CheckboxField
          form={form}
          name={"consentAsserted" as Path<V>}
          label="I hold consent from everyone I will add to this topic without confirmation"
          hint="Without confirmation, the service takes your word for it: you must be able to prove each subscriber's consent."
        />
      )}
    </>
  );
}

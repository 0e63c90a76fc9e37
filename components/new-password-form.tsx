"use client";

import { useActionState } from "react";

import { FormError } from "@/components/forms/form-fields";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";

/** Why no password was set: next to the password when it is at fault, else under the form. */
export interface NewPasswordState {
  error?: string;
  field?: string;
}

/**
 * Sets the password of the account a mailed link names (a reset, an invitation). The address is shown
 * read-only so that a password manager files the new password under it; the action comes bound to the
 * link's token from the page.
 */
export function NewPasswordForm({
  email,
  label,
  submitLabel,
  action,
}: {
  email: string;
  label: string;
  submitLabel: string;
  action: (previous: NewPasswordState, form: FormData) => Promise<NewPasswordState>;
}) {
  const [state, submit, pending] = useActionState<NewPasswordState, FormData>(action, {});
  const fieldError = state.field === "password" ? state.error : undefined;
  return (
    <form action={submit} className="grid gap-4">
      <Field id="new-password-email" label="Email">
        {(aria) => <Input {...aria} value={email} readOnly autoComplete="username" />}
      </Field>
      <Field id="new-password" label={label} error={fieldError}>
        {(aria) => (
          <Input
            {...aria}
            name="password"
            type="password"
            autoComplete="new-password"
            required
            minLength={8}
            maxLength={200}
            autoFocus
          />
        )}
      </Field>
      <FormError message={fieldError ? undefined : state.error} />
      <Button type="submit" disabled={pending}>
        {pending ? "Saving…" : submitLabel}
      </Button>
    </form>
  );
}

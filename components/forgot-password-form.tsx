"use client";

import Link from "next/link";
import { useActionState } from "react";

import { FormError } from "@/components/forms/form-fields";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";

export interface ForgotPasswordState {
  sent?: boolean;
  error?: string;
  field?: string;
}

/** Asks for a reset link; the answer is the same whether or not the address has an account. */
export function ForgotPasswordForm({
  email,
  validMinutes,
  action,
}: {
  email: string;
  validMinutes: number;
  action: (previous: ForgotPasswordState, form: FormData) => Promise<ForgotPasswordState>;
}) {
  const [state, submit, pending] = useActionState<ForgotPasswordState, FormData>(action, {});
  if (state.sent) {
    return (
      <div className="grid gap-4">
        <p
          role="status"
          className="rounded-md border border-emerald-600/30 bg-emerald-600/10 px-3 py-2 text-sm text-foreground"
        >
          If an account uses that address, a link to choose a new password is on its way to it. The link works once, for{" "}
          {validMinutes} minutes.
        </p>
        <Link className="text-sm text-primary underline" href="/signin">
          Back to sign in
        </Link>
      </div>
    );
  }
  const fieldError = state.field === "email" ? state.error : undefined;
  return (
    <form action={submit} className="grid gap-4">
      <Field id="forgot-email" label="Email" error={fieldError}>
        {(aria) => (
          <Input
            {...aria}
            name="email"
            type="email"
            autoComplete="username"
            required
            maxLength={320}
            defaultValue={email}
            autoFocus
          />
        )}
      </Field>
      <FormError message={fieldError ? undefined : state.error} />
      <Button type="submit" disabled={pending}>
        {pending ? "Sending…" : "Send the reset link"}
      </Button>
      <Link className="text-sm text-primary underline" href="/signin">
        Back to sign in
      </Link>
    </form>
  );
}

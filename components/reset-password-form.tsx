"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";

export interface ResetPasswordState {
  error?: string;
  field?: string;
}

// The action comes bound to the token from the page.
export function ResetPasswordForm({ email, action }: { email: string; action: (previous: ResetPasswordState, form: FormData) => Promise<ResetPasswordState> }) {
  const [state, submit, pending] = useActionState<ResetPasswordState, FormData>(action, {});
  const fieldError = state.field === "password" ? state.error : undefined;
  return (
    <form action={submit} className="grid gap-4">
      <div className="grid gap-2">
        <Label htmlFor="reset-email">Email</Label>
        <Input id="reset-email" value={email} readOnly autoComplete="username" />
      </div>
      <div className="grid gap-2">
        <Label htmlFor="reset-password">New password (at least 8 characters)</Label>
        <Input
          id="reset-password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          maxLength={200}
          autoFocus
          aria-invalid={fieldError ? true : undefined}
          aria-describedby={fieldError ? "reset-password-error" : undefined}
        />
        {fieldError && (
          <p id="reset-password-error" role="alert" className="text-sm text-destructive">
            {fieldError}
          </p>
        )}
      </div>
      {state.error && !fieldError && (
        <p role="alert" className="text-sm text-destructive">
          {state.error}
        </p>
      )}
      <Button type="submit" disabled={pending}>
        {pending ? "Saving…" : "Set new password"}
      </Button>
    </form>
  );
}

"use client";

import { useActionState } from "react";

import { Button } from "@/components/ui/button";
import { Input, NativeSelect } from "@/components/ui/input";
import { Label } from "@/components/ui/label";

/** What the first-run form shows after submitting: why nothing was created, next to the field at fault. */
export interface SetupState {
  error?: string;
  field?: string;
}

export function SetupForm({
  createFirstOwner,
}: {
  createFirstOwner: (previous: SetupState, form: FormData) => Promise<SetupState>;
}) {
  const [state, action, pending] = useActionState<SetupState, FormData>(createFirstOwner, {});
  return (
    <form className="grid gap-4" action={action}>
      <div className="grid gap-2">
        <Label htmlFor="setup-workspace">Workspace name</Label>
        <Input
          id="setup-workspace"
          name="workspaceName"
          required
          maxLength={200}
          aria-invalid={state.field === "workspaceName" ? true : undefined}
        />
      </div>
      <div className="grid gap-2">
        <Label htmlFor="setup-currency">Billing currency</Label>
        <NativeSelect id="setup-currency" name="currency" defaultValue="usd" aria-describedby="setup-currency-hint">
          <option value="usd">US dollar (USD)</option>
          <option value="eur">Euro (EUR)</option>
          <option value="gbp">Pound sterling (GBP)</option>
        </NativeSelect>
        <p id="setup-currency-hint" className="text-xs text-muted-foreground">
          Every invoice of this workspace is in this currency; it cannot be changed later.
        </p>
      </div>
      <div className="grid gap-2">
        <Label htmlFor="setup-email">Email</Label>
        <Input
          id="setup-email"
          name="email"
          type="email"
          autoComplete="username"
          required
          maxLength={320}
          aria-invalid={state.field === "email" ? true : undefined}
        />
      </div>
      <div className="grid gap-2">
        <Label htmlFor="setup-password">Password (at least 8 characters)</Label>
        <Input
          id="setup-password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          maxLength={200}
          aria-invalid={state.field === "password" ? true : undefined}
        />
      </div>
      {state.error && (
        <p className="text-sm text-destructive" role="alert">
          {state.error}
        </p>
      )}
      <Button type="submit" disabled={pending}>
        {pending ? "Creating…" : "Create account"}
      </Button>
    </form>
  );
}

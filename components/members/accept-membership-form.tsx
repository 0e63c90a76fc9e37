"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";

export interface AcceptState {
  error?: string;
}

// The action comes bound to the token from the page.
export function AcceptInvitationForm({ email, action }: { email: string; action: (previous: AcceptState, form: FormData) => Promise<AcceptState> }) {
  const [state, submit, pending] = useActionState<AcceptState, FormData>(action, {});
  return (
    <form action={submit} className="grid gap-4">
      <div className="grid gap-2">
        <Label htmlFor="invite-email">Email</Label>
        <Input id="invite-email" value={email} readOnly autoComplete="username" />
      </div>
      <div className="grid gap-2">
        <Label htmlFor="invite-password">Password (at least 8 characters)</Label>
        <Input
          id="invite-password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          maxLength={200}
          aria-invalid={state.error ? true : undefined}
          aria-describedby={state.error ? "invite-error" : undefined}
        />
      </div>
      {state.error && (
        <p id="invite-error" role="alert" className="text-sm text-destructive">
          {state.error}
        </p>
      )}
      <Button type="submit" disabled={pending}>
        Set password
      </Button>
    </form>
  );
}

/** For someone who already has an account: one button accepts, bound to the token from the page. */
export function AcceptMembershipForm({ action }: { action: (previous: AcceptState) => Promise<AcceptState> }) {
  const [state, submit, pending] = useActionState<AcceptState>(action, {});
  return (
    <form action={submit} className="grid gap-4">
      {state.error && (
        <p role="alert" className="text-sm text-destructive">
          {state.error}
        </p>
      )}
      <Button type="submit" disabled={pending}>
        Accept the invitation
      </Button>
    </form>
  );
}

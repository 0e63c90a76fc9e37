"use client";

import { useActionState } from "react";

import { Button } from "@/components/ui/button";

export interface AcceptState {
  error?: string;
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

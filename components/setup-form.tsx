"use client";

import { useActionState } from "react";
import { createFirstOwnerAction, type SetupState } from "@/app/(auth)/setup/actions";

export function SetupForm() {
  const [state, action, pending] = useActionState<SetupState, FormData>(createFirstOwnerAction, {});
  return (
    <form className="form" action={action}>
      <label>
        Workspace name
        <input name="workspaceName" required maxLength={200} />
      </label>
      <label>
        Email
        <input name="email" type="email" autoComplete="username" required maxLength={320} />
      </label>
      <label>
        Password (at least 8 characters)
        <input name="password" type="password" autoComplete="new-password" required minLength={8} maxLength={200} />
      </label>
      {state.error && <p className="error" role="alert">{state.error}</p>}
      <button className="button" type="submit" disabled={pending}>
        {pending ? "Creating…" : "Create account"}
      </button>
    </form>
  );
}

"use client";

import { useActionState } from "react";
import type { SecretState } from "@/app/(dashboard)/w/[workspaceId]/webhooks/actions";

type SecretAction = (state: SecretState, form: FormData) => Promise<SecretState>;

/** The signing secret, shown once: it is not displayed again after this page is left. */
function ShownOnce({ secret }: { secret: string }) {
  return (
    <p role="status">
      Signing secret (shown once, copy it now): <code data-testid="signing-secret">{secret}</code>
    </p>
  );
}

export function CreateEndpointForm({ action, eventTypes }: { action: SecretAction; eventTypes: readonly string[] }) {
  const [state, submit, pending] = useActionState(action, {});
  return (
    <form className="form card" action={submit}>
      <label>
        Endpoint URL
        <input name="url" type="url" required placeholder="https://hooks.example.com/mail" />
      </label>
      <fieldset>
        <legend>Events (none ticked: all twelve)</legend>
        {eventTypes.map((type) => (
          <label key={type} className="choice">
            <input type="checkbox" name="event" value={type} /> {type}
          </label>
        ))}
      </fieldset>
      {state.error && <p className="error" role="alert">{state.error}</p>}
      {state.secret && <ShownOnce secret={state.secret} />}
      <button className="button" type="submit" disabled={pending}>{pending ? "Adding…" : "Add endpoint"}</button>
    </form>
  );
}

export function RotateSecretForm({ action }: { action: SecretAction }) {
  const [state, submit, pending] = useActionState(action, {});
  return (
    <form action={submit} className="outcomes">
      <button className="button secondary" type="submit" disabled={pending}>{pending ? "Rotating…" : "Rotate signing secret"}</button>
      {state.secret && <ShownOnce secret={state.secret} />}
    </form>
  );
}

"use client";

import { KeyRound, Plus, RefreshCw } from "lucide-react";
import { useActionState } from "react";

import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Checkbox, Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";

/** What a form shows after submitting: the new secret once, or why nothing changed (with what was typed, kept). */
export interface SecretState {
  secret?: string;
  error?: string;
  url?: string;
  eventTypes?: string[];
}

type SecretAction = (state: SecretState, form: FormData) => Promise<SecretState>;

/** The signing secret, shown once: it is not displayed again after this page is left. */
function ShownOnce({ secret }: { secret: string }) {
  return (
    <Alert>
      <KeyRound />
      <AlertTitle>Signing secret: shown once, copy it now</AlertTitle>
      <AlertDescription>
        <code className="break-all text-foreground" data-testid="signing-secret">
          {secret}
        </code>
      </AlertDescription>
    </Alert>
  );
}

export function CreateEndpointForm({
  action,
  eventTypes,
  urlHint,
}: {
  action: SecretAction;
  eventTypes: readonly string[];
  urlHint: string;
}) {
  const [state, submit, pending] = useActionState(action, {});
  // A refused form comes back with what was typed: the form's reset after the action restores these values.
  const kept: SecretState = state.error ? state : {};
  return (
    <form className="grid gap-4" action={submit}>
      <div className="grid gap-2">
        <Label htmlFor="endpoint-url">Endpoint URL</Label>
        <Input
          id="endpoint-url"
          name="url"
          type="url"
          required
          placeholder="https://hooks.example.com/mail"
          defaultValue={kept.url ?? ""}
          aria-invalid={state.error ? true : undefined}
          aria-describedby={state.error ? "endpoint-hint endpoint-error" : "endpoint-hint"}
        />
        <p id="endpoint-hint" className="text-sm text-muted-foreground">
          {urlHint}
        </p>
        {state.error && (
          <p id="endpoint-error" className="text-sm text-destructive" role="alert">
            {state.error}
          </p>
        )}
      </div>
      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium">Events (none ticked: all twelve)</legend>
        <div className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
          {eventTypes.map((type) => (
            <Label key={type} className="font-normal">
              <Checkbox name="event" value={type} defaultChecked={kept.eventTypes?.includes(type) ?? false} />{" "}
              <code className="text-xs">{type}</code>
            </Label>
          ))}
        </div>
      </fieldset>
      {state.secret && <ShownOnce secret={state.secret} />}
      <div>
        <Button type="submit" disabled={pending}>
          <Plus />
          {pending ? "Adding…" : "Add endpoint"}
        </Button>
      </div>
    </form>
  );
}

export function RotateSecretForm({ action }: { action: SecretAction }) {
  const [state, submit, pending] = useActionState(action, {});
  return (
    <form action={submit} className="grid gap-3">
      <div>
        <Button variant="outline" size="sm" type="submit" disabled={pending}>
          <RefreshCw />
          {pending ? "Rotating…" : "Rotate signing secret"}
        </Button>
      </div>
      {state.secret && <ShownOnce secret={state.secret} />}
    </form>
  );
}

"use client";

import { KeyRound, Plus } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "sonner";

import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { NativeSelect, Textarea } from "@/components/ui/input";
import type { ActionState } from "@/lib/dashboard/action-state";

export type CreateKeyAction = (
  workspaceId: string,
  input: { brandId?: string; origins: string[]; environment: "live" | "test" },
) => Promise<ActionState<{ keyId: string }>>;

/** Creating a publishable key without leaving the form: the new key is chosen for the form at once. */
export function NewPublishableKey({
  workspaceId,
  brandId,
  createKey,
  onCreated,
}: {
  workspaceId: string;
  brandId: string;
  createKey: CreateKeyAction;
  onCreated: (keyId: string) => void;
}) {
  const router = useRouter();
  const [newKey, setNewKey] = useState<{ origins: string; environment: "live" | "test"; error?: string } | null>(null);

  const makeKey = async () => {
    if (!newKey) return;
    const origins = newKey.origins.split(/[\s,]+/).filter(Boolean);
    const state = await createKey(workspaceId, {
      brandId: brandId || undefined,
      origins,
      environment: newKey.environment,
    });
    if (!state.ok) return setNewKey({ ...newKey, error: Object.values(state.fieldErrors)[0] ?? state.message });
    setNewKey(null);
    onCreated(state.result.keyId);
    toast.success("Publishable key created for this form.");
    router.refresh();
  };

  if (!newKey) {
    return (
      <div>
        <Button
          type="button"
          variant="outline"
          size="sm"
          onClick={() => setNewKey({ origins: "", environment: "live" })}
        >
          <Plus />
          New publishable key
        </Button>
      </div>
    );
  }
  return (
    <div className="grid gap-3 rounded-md border p-4">
      <Field
        id="new-key-origins"
        label="Allowed origins"
        hint="One per line, e.g. https://www.example.com: the sites your form will be on."
        error={newKey.error}
      >
        {(aria) => (
          <Textarea
            {...aria}
            rows={2}
            value={newKey.origins}
            onChange={(event) => setNewKey({ ...newKey, origins: event.target.value })}
          />
        )}
      </Field>
      <Field id="new-key-mode" label="Mode">
        {(aria) => (
          <NativeSelect
            {...aria}
            value={newKey.environment}
            onChange={(event) => setNewKey({ ...newKey, environment: event.target.value as "live" | "test" })}
          >
            <option value="live">Live</option>
            <option value="test">Test: stores signups, mails nothing</option>
          </NativeSelect>
        )}
      </Field>
      <div className="flex gap-2">
        <Button type="button" onClick={makeKey}>
          <KeyRound />
          Create key
        </Button>
        <Button type="button" variant="ghost" onClick={() => setNewKey(null)}>
          Cancel
        </Button>
      </div>
    </div>
  );
}

"use client";

import { Plus } from "lucide-react";
import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { FormDialog } from "@/components/forms/form-dialog";
import { FormError, TextAreaField, TextField } from "@/components/forms/form-fields";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { DialogFooter } from "@/components/ui/dialog";
import type { ActionState } from "@/lib/dashboard/action-state";
import { createSuppressionSchema, type CreateSuppressionInput } from "@/lib/suppressions/suppression-schemas";

type Create = (workspaceId: string, input: CreateSuppressionInput) => Promise<ActionState<{ suppressionId: string; created: boolean }>>;

function AddSuppressionForm({ workspaceId, action, close }: { workspaceId: string; action: Create; close: () => void }) {
  const router = useRouter();
  const { form, submit, formError, pending } = useActionForm({
    schema: createSuppressionSchema,
    action,
    workspaceId,
    defaultValues: { email: undefined, domain: undefined, note: "" },
    onSuccess: ({ created }) => {
      close();
      toast.success(created ? "Suppressed. Nothing more will be sent there." : "That was already suppressed.");
      router.refresh();
    },
  });
  return (
    <form onSubmit={submit} className="grid gap-4" noValidate>
      <TextField form={form} name="email" label="Email address" type="email" optional hint="Blocks one address." />
      <TextField form={form} name="domain" label="Or a whole domain" optional placeholder="example.com" hint="Blocks every address at the domain, now and later. Fill in one of the two." />
      <TextAreaField form={form} name="note" label="Note" hint="Recommended: why, for whoever reads this later." rows={2} />
      <FormError message={formError} />
      <DialogFooter>
        <Button type="submit" disabled={pending}>
          Suppress
        </Button>
      </DialogFooter>
    </form>
  );
}

export function AddSuppressionDialog({ workspaceId, action }: { workspaceId: string; action: Create }) {
  return (
    <FormDialog
      title="Add a suppression"
      description="A suppressed address is never sent to, whatever its subscriptions. Suppressing does not unsubscribe: removing the suppression lets mail flow again."
      trigger={
        <Button>
          <Plus />
          Add suppression
        </Button>
      }
    >
      {(close) => <AddSuppressionForm workspaceId={workspaceId} action={action} close={close} />}
    </FormDialog>
  );
}

export function RemoveSuppressionButton({
  workspaceId,
  suppression,
  action,
}: {
  workspaceId: string;
  suppression: { id: string; target: string };
  action: (w: string, i: { suppressionId: string }) => Promise<ActionState<unknown>>;
}) {
  const router = useRouter();
  return (
    <ConfirmButton
      label="Remove"
      variant="outline"
      title={`Remove the suppression of ${suppression.target}?`}
      description="Mail can reach it again. Nobody is resubscribed: only people still subscribed to a topic get that topic's mail."
      confirmLabel="Remove suppression"
      onConfirm={async () => {
        const state = await action(workspaceId, { suppressionId: suppression.id });
        if (!state.ok) return { error: state.message };
        toast.success("Suppression removed.");
        router.refresh();
      }}
    />
  );
}

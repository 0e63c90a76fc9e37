"use client";

import { Plus } from "lucide-react";
import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { z } from "zod";

import { FormDialog } from "@/components/forms/form-dialog";
import { FormError, TextField } from "@/components/forms/form-fields";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { DialogFooter } from "@/components/ui/dialog";
import type { ActionState } from "@/lib/dashboard/action-state";

const addSchema = z.strictObject({ email: z.string().trim().min(1, "enter an address") });
type Add = (workspaceId: string, input: { email: string }) => Promise<ActionState<{ email: string; mailed: boolean }>>;
type Remove = (workspaceId: string, input: { email: string }) => Promise<ActionState<unknown>>;

function AddForm({ workspaceId, action, close }: { workspaceId: string; action: Add; close: () => void }) {
  const router = useRouter();
  const { form, submit, formError, pending } = useActionForm({
    schema: addSchema,
    action,
    workspaceId,
    defaultValues: { email: "" },
    onSuccess: ({ email, mailed }) => {
      close();
      if (mailed) toast.success(`A confirmation link went to ${email}.`);
      else toast.error(`The link to ${email} could not be sent. Try again.`);
      router.refresh();
    },
  });
  return (
    <form onSubmit={submit} className="grid gap-4" noValidate>
      <TextField
        form={form}
        name="email"
        label="Email address"
        type="email"
        hint="A colleague's or a seed inbox you own. It counts once its owner follows the link we mail to it."
      />
      <FormError message={formError} />
      <DialogFooter>
        <Button type="submit" disabled={pending}>
          Send confirmation link
        </Button>
      </DialogFooter>
    </form>
  );
}

export function AddVerifiedAddressDialog({ workspaceId, action }: { workspaceId: string; action: Add }) {
  return (
    <FormDialog
      title="Add a verified address"
      description="While your workspace is in its sandbox, campaigns reach only your members and these addresses."
      trigger={
        <Button>
          <Plus />
          Add address
        </Button>
      }
    >
      {(close) => <AddForm workspaceId={workspaceId} action={action} close={close} />}
    </FormDialog>
  );
}

export function RemoveVerifiedAddressButton({
  workspaceId,
  email,
  action,
}: {
  workspaceId: string;
  email: string;
  action: Remove;
}) {
  const router = useRouter();
  return (
    <ConfirmButton
      label="Remove"
      variant="outline"
      title={`Remove ${email}?`}
      description="While your workspace is in its sandbox, campaigns will no longer reach it."
      confirmLabel="Remove address"
      onConfirm={async () => {
        const state = await action(workspaceId, { email });
        if (!state.ok) return { error: state.message };
        toast.success("Address removed.");
        router.refresh();
      }}
    />
  );
}

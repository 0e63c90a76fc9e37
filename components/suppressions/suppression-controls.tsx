"use client";

import { Plus } from "lucide-react";
import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { z } from "zod";

import { FormDialog } from "@/components/forms/form-dialog";
import { FormError, TextAreaField, TextField } from "@/components/forms/form-fields";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { DialogFooter } from "@/components/ui/dialog";
import type { ActionState } from "@/lib/dashboard/action-state";
import { createSuppressionSchema, type CreateSuppressionInput } from "@/lib/suppressions/suppression-schemas";

type Create = (
  workspaceId: string,
  input: CreateSuppressionInput,
) => Promise<ActionState<{ suppressionId: string; created: boolean }>>;

function AddSuppressionForm({
  workspaceId,
  action,
  close,
}: {
  workspaceId: string;
  action: Create;
  close: () => void;
}) {
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
      <TextField
        form={form}
        name="domain"
        label="Or a whole domain"
        optional
        placeholder="example.com"
        hint="Blocks every address at the domain, now and later. Fill in one of the two."
      />
      <TextAreaField
        form={form}
        name="note"
        label="Note"
        hint="Recommended: why, for whoever reads this later."
        rows={2}
      />
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

const liftSchema = z.strictObject({
  suppressionId: z.string(),
  reason: z.string().trim().min(3, "say why, for whoever reads this later").max(500),
});
type Lift = (workspaceId: string, input: z.input<typeof liftSchema>) => Promise<ActionState<unknown>>;

function LiftSuppressionForm({
  workspaceId,
  suppressionId,
  action,
  close,
}: {
  workspaceId: string;
  suppressionId: string;
  action: Lift;
  close: () => void;
}) {
  const router = useRouter();
  const { form, submit, formError, pending } = useActionForm({
    schema: liftSchema,
    action,
    workspaceId,
    defaultValues: { suppressionId, reason: "" },
    onSuccess: () => {
      close();
      toast.success("Suppression lifted. Mail can reach it again.");
      router.refresh();
    },
  });
  return (
    <form onSubmit={submit} className="grid gap-4" noValidate>
      <TextAreaField
        form={form}
        name="reason"
        label="Why lift it?"
        hint="Kept with your name, e.g. The recipient fixed their mailbox and asked to get mail again."
        rows={2}
      />
      <FormError message={formError} />
      <DialogFooter>
        <Button type="submit" disabled={pending}>
          Lift suppression
        </Button>
      </DialogFooter>
    </form>
  );
}

/** Lifting asks why: the reason and who lifted it are kept beside the evidence. */
export function LiftSuppressionButton({
  workspaceId,
  suppression,
  action,
}: {
  workspaceId: string;
  suppression: { id: string; target: string };
  action: Lift;
}) {
  return (
    <FormDialog
      title={`Lift the suppression of ${suppression.target}?`}
      description="Mail can reach it again. Nobody is resubscribed: only people still subscribed to a topic get that topic's mail."
      trigger={
        <Button variant="outline" size="sm">
          Lift
        </Button>
      }
    >
      {(close) => (
        <LiftSuppressionForm workspaceId={workspaceId} suppressionId={suppression.id} action={action} close={close} />
      )}
    </FormDialog>
  );
}

"use client";

import { Mail, UserPlus } from "lucide-react";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { toast } from "sonner";
import { FormDialog } from "@/components/forms/form-dialog";
import { FormError, TextField } from "@/components/forms/form-fields";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { DialogFooter } from "@/components/ui/dialog";
import type { ActionState } from "@/lib/dashboard/action-state";
import { inviteMemberSchema, type InviteMemberInput } from "@/lib/members/member-schemas";

type Invite = (workspaceId: string, input: InviteMemberInput) => Promise<ActionState<{ userId: string; mailed: boolean }>>;
type ByUser<R> = (workspaceId: string, input: { userId: string }) => Promise<ActionState<R>>;

function InviteForm({ workspaceId, action, close }: { workspaceId: string; action: Invite; close: () => void }) {
  const router = useRouter();
  const { form, submit, formError, pending } = useActionForm({
    schema: inviteMemberSchema,
    action,
    workspaceId,
    defaultValues: { email: "" },
    onSuccess: ({ mailed }) => {
      close();
      if (mailed) toast.success("Invitation sent.");
      else toast.warning("Member added, but the invitation mail could not be sent: use Resend invitation.");
      router.refresh();
    },
  });
  return (
    <form onSubmit={submit} className="grid gap-4" noValidate>
      <TextField form={form} name="email" label="Email" type="email" hint="They get a link to set a password, valid for 7 days." />
      <FormError message={formError} />
      <DialogFooter>
        <Button type="submit" disabled={pending}>
          Send invitation
        </Button>
      </DialogFooter>
    </form>
  );
}

export function InviteMemberDialog({ workspaceId, action }: { workspaceId: string; action: Invite }) {
  return (
    <FormDialog
      title="Invite a member"
      description="Members see and change everything in this workspace: its audience, campaigns, keys and settings."
      trigger={
        <Button>
          <UserPlus />
          Invite member
        </Button>
      }
    >
      {(close) => <InviteForm workspaceId={workspaceId} action={action} close={close} />}
    </FormDialog>
  );
}

export function ResendInvitationButton({ workspaceId, userId, action }: { workspaceId: string; userId: string; action: ByUser<{ mailed: boolean }> }) {
  const [pending, startTransition] = useTransition();
  return (
    <Button
      variant="outline"
      size="sm"
      disabled={pending}
      onClick={() =>
        startTransition(async () => {
          const state = await action(workspaceId, { userId });
          if (!state.ok) toast.error(state.message);
          else if (state.result.mailed) toast.success("Invitation sent again.");
          else toast.error("The invitation mail could not be sent; try again later.");
        })
      }
    >
      <Mail />
      Resend invitation
    </Button>
  );
}

export function RemoveMemberButton({ workspaceId, member, action }: { workspaceId: string; member: { userId: string; email: string }; action: ByUser<unknown> }) {
  const router = useRouter();
  return (
    <ConfirmButton
      label="Remove"
      title={`Remove ${member.email}?`}
      description="They lose access to this workspace at once. Their account and their other workspaces stay."
      confirmLabel="Remove member"
      onConfirm={async () => {
        const state = await action(workspaceId, { userId: member.userId });
        if (!state.ok) return { error: state.message };
        toast.success(`${member.email} removed.`);
        router.refresh();
      }}
    />
  );
}

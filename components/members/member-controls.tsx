"use client";

import { Mail, UserPlus } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import type { UseFormReturn } from "react-hook-form";
import { toast } from "sonner";

import { FormDialog } from "@/components/forms/form-dialog";
import { FormError, TextField } from "@/components/forms/form-fields";
import { errorText, useActionForm } from "@/components/forms/use-action-form";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { DialogFooter } from "@/components/ui/dialog";
import { Label } from "@/components/ui/label";
import type { ActionState } from "@/lib/dashboard/action-state";
import {
  inviteMemberSchema,
  ROLE_DESCRIPTIONS,
  type InviteMemberInput,
  type MemberCreations,
  type MemberRole,
  type RemoveMemberInput,
} from "@/lib/members/member-schemas";

type Invite = (
  workspaceId: string,
  input: InviteMemberInput,
) => Promise<ActionState<{ userId: string; mailed: boolean }>>;
type ByUser<R> = (workspaceId: string, input: { userId: string }) => Promise<ActionState<R>>;

const ROLE_NAMES: Record<MemberRole, string> = { owner: "Owner", admin: "Admin", member: "Member" };

/** One choice per role the inviter may grant, each with what it allows. */
function RoleChoice({ form, roles }: { form: UseFormReturn<InviteMemberInput>; roles: MemberRole[] }) {
  const error = errorText(form.formState.errors.role?.message);
  return (
    <fieldset className="grid gap-2" aria-describedby={error ? "invite-role-error" : undefined}>
      <legend className="mb-1 text-sm font-medium">Role</legend>
      {roles.map((role) => (
        <Label
          key={role}
          className="items-start rounded-md border p-3 font-normal leading-normal has-[:checked]:border-primary"
        >
          <input type="radio" value={role} className="mt-1 accent-primary" {...form.register("role")} />
          <span className="grid gap-0.5">
            <span className="font-medium">{ROLE_NAMES[role]}</span>
            <span className="text-sm text-muted-foreground">{ROLE_DESCRIPTIONS[role]}</span>
          </span>
        </Label>
      ))}
      {error && (
        <p id="invite-role-error" role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
    </fieldset>
  );
}

function InviteForm({
  workspaceId,
  action,
  roles,
  close,
}: {
  workspaceId: string;
  action: Invite;
  roles: MemberRole[];
  close: () => void;
}) {
  const router = useRouter();
  const { form, submit, formError, pending } = useActionForm({
    schema: inviteMemberSchema,
    action,
    workspaceId,
    defaultValues: { email: "", role: "member" },
    onSuccess: ({ mailed }) => {
      close();
      if (mailed) toast.success("Invitation sent.");
      else toast.warning("Member added, but the invitation mail could not be sent: use Resend invitation.");
      router.refresh();
    },
  });
  return (
    <form onSubmit={submit} className="grid gap-4" noValidate>
      <TextField
        form={form}
        name="email"
        label="Email"
        type="email"
        hint="They get a link to accept (and set a password if they have no account), valid for 7 days."
      />
      <RoleChoice form={form} roles={roles} />
      <FormError message={formError} />
      <DialogFooter>
        <Button type="submit" disabled={pending}>
          Send invitation
        </Button>
      </DialogFooter>
    </form>
  );
}

export function InviteMemberDialog({
  workspaceId,
  action,
  roles,
}: {
  workspaceId: string;
  action: Invite;
  roles: MemberRole[];
}) {
  return (
    <FormDialog
      title="Invite a member"
      description="Choose what they may do. Every role sees the workspace's audience, campaigns and reports."
      trigger={
        <Button>
          <UserPlus />
          Invite member
        </Button>
      }
    >
      {(close) => <InviteForm workspaceId={workspaceId} action={action} roles={roles} close={close} />}
    </FormDialog>
  );
}

export function ResendInvitationButton({
  workspaceId,
  userId,
  action,
}: {
  workspaceId: string;
  userId: string;
  action: ByUser<{ mailed: boolean }>;
}) {
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

type Remove = (workspaceId: string, input: RemoveMemberActionInput) => Promise<ActionState<unknown>>;
type RemoveMemberActionInput = { userId: string } & RemoveMemberInput;

/**
 * Removing a member first lists the API keys and webhook endpoints they created, and the one removing
 * them chooses: keep them working, or revoke the keys and turn the endpoints off with the removal.
 */
export function RemoveMemberButton({
  workspaceId,
  member,
  creations,
  action,
}: {
  workspaceId: string;
  member: { userId: string; email: string };
  creations: MemberCreations;
  action: Remove;
}) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string>();
  const [choice, setChoice] = useState<RemoveMemberInput["keysAndEndpoints"]>();
  const [pending, startTransition] = useTransition();
  const created = creations.apiKeys.length + creations.webhookEndpoints.length;
  return (
    <AlertDialog open={open} onOpenChange={(next) => (setOpen(next), setError(undefined), setChoice(undefined))}>
      <AlertDialogTrigger asChild>
        <Button variant="destructive" size="sm">
          Remove
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{`Remove ${member.email}?`}</AlertDialogTitle>
          <AlertDialogDescription>
            They lose access to this workspace at once. Their account and their other workspaces stay.
          </AlertDialogDescription>
        </AlertDialogHeader>
        {created > 0 && (
          <div className="grid gap-3 text-sm">
            <p>They created:</p>
            <ul className="grid gap-1 pl-4 [list-style:disc]">
              {creations.apiKeys.map((key) => (
                <li key={key.id}>
                  API key <span className="font-mono">{`${key.displayPrefix}…${key.last4}`}</span>
                  {key.name && <> ({key.name})</>}
                </li>
              ))}
              {creations.webhookEndpoints.map((endpoint) => (
                <li key={endpoint.id} className="break-all">
                  Webhook endpoint {endpoint.url}
                </li>
              ))}
            </ul>
            <fieldset className="grid gap-2">
              <legend className="mb-1 font-semibold">What becomes of them?</legend>
              <Label className="font-normal">
                <input
                  type="radio"
                  name="keysAndEndpoints"
                  value="keep"
                  checked={choice === "keep"}
                  onChange={() => setChoice("keep")}
                  className="accent-primary"
                />
                Keep them working
              </Label>
              <Label className="font-normal">
                <input
                  type="radio"
                  name="keysAndEndpoints"
                  value="revoke"
                  checked={choice === "revoke"}
                  onChange={() => setChoice("revoke")}
                  className="accent-primary"
                />
                Revoke the keys and turn the endpoints off
              </Label>
            </fieldset>
          </div>
        )}
        {error && (
          <p role="alert" className="text-sm text-destructive">
            {error}
          </p>
        )}
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction
            disabled={pending || (created > 0 && !choice)}
            onClick={(event) => {
              event.preventDefault();
              startTransition(async () => {
                // Nothing of theirs to decide about: "keep" changes nothing.
                const state = await action(workspaceId, { userId: member.userId, keysAndEndpoints: choice ?? "keep" });
                if (!state.ok) return setError(state.message);
                setOpen(false);
                toast.success(`${member.email} removed.`);
                router.refresh();
              });
            }}
          >
            Remove member
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

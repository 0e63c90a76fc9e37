"use client";

import { useQueryClient } from "@tanstack/react-query";
import { Trash2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { toast } from "sonner";

import { FormDialog } from "@/components/forms/form-dialog";
import { FormError, TextField } from "@/components/forms/form-fields";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { DialogFooter } from "@/components/ui/dialog";
import { eraseContactSchema, type EraseContactInput } from "@/lib/contacts/contact-schemas";
import type { Erasure } from "@/lib/contacts/erase-contacts";
import type { ActionState } from "@/lib/dashboard/action-state";
import { dashboardKeys } from "@/lib/dashboard/dashboard-reads";

type Erase = (workspaceId: string, input: EraseContactInput) => Promise<ActionState<Erasure>>;

interface EraseProps {
  workspaceId: string;
  contact: { id: string; email: string };
  action: Erase;
}

function EraseForm({ workspaceId, contact, action }: EraseProps) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const { form, submit, formError, pending } = useActionForm({
    schema: eraseContactSchema,
    action,
    workspaceId,
    defaultValues: { contactId: contact.id, confirmation: "" },
    onSuccess: ({ cancelledSends }) => {
      toast.success(
        cancelledSends > 0
          ? `${contact.email} was erased, and ${cancelledSends} queued ${cancelledSends === 1 ? "mail" : "mails"} to them will not go out.`
          : `${contact.email} was erased.`,
      );
      // The contacts table and the overview's counts read before still hold them.
      void queryClient.invalidateQueries({ queryKey: dashboardKeys.workspace(workspaceId) });
      router.push(`/w/${workspaceId}/contacts`);
    },
  });
  return (
    <form onSubmit={submit} className="grid gap-4" noValidate>
      <TextField form={form} name="confirmation" label={`Type ${contact.email} to confirm`} autoComplete="off" />
      <FormError message={formError} />
      <DialogFooter>
        <Button type="submit" variant="destructive" disabled={pending}>
          Erase for good
        </Button>
      </DialogFooter>
    </form>
  );
}

/**
 * Erases a contact at the person's request (GDPR Art. 17): says what goes and what stays, and
 * asks for the address to be typed, since nothing brings the data back.
 */
export function EraseContactDialog(props: EraseProps) {
  return (
    <FormDialog
      title="Erase this person"
      description={
        <span className="grid gap-2">
          <span>
            Everything you hold about {props.contact.email} is deleted and cannot be restored: their name and
            attributes, subscriptions with their consent evidence, lists, suppressions, their address in past sends,
            events and webhooks, the Test mailbox&apos;s copies and bounce reports. A mail queued for them in a campaign
            under way is not sent.
          </span>
          <span>
            Campaign figures stay as they were. The address is kept only as an unreadable fingerprint, so that no import
            or API call adds them again; they can still sign up again themselves, from a signup form.
          </span>
        </span>
      }
      trigger={
        <Button variant="outline" size="sm" className="text-destructive">
          <Trash2 />
          Erase this person
        </Button>
      }
    >
      {() => <EraseForm {...props} />}
    </FormDialog>
  );
}

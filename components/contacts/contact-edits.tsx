"use client";

import { Pencil, X } from "lucide-react";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { toast } from "sonner";

import { attributeDefaults, AttributeFields, type AttributeDefinition } from "@/components/contacts/attribute-fields";
import { FormDialog } from "@/components/forms/form-dialog";
import { FormError, SelectField, TextField } from "@/components/forms/form-fields";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { DialogFooter } from "@/components/ui/dialog";
import { checkAttributeValues, type AttributeScalar } from "@/lib/contacts/attribute-schemas";
import {
  contactListSchema,
  editContactSchema,
  type ContactListInput,
  type EditContactInput,
} from "@/lib/contacts/contact-schemas";
import { TIME_ZONE_HINT } from "@/lib/contacts/time-zone";
import type { ActionState } from "@/lib/dashboard/action-state";

type Action<I> = (workspaceId: string, input: I) => Promise<ActionState<unknown>>;

type EditableContact = {
  id: string;
  firstName: string | null;
  lastName: string | null;
  timeZone: string | null;
  attributes: Record<string, AttributeScalar>;
};

function EditContactForm({
  workspaceId,
  contact,
  definitions,
  action,
  close,
}: {
  workspaceId: string;
  contact: EditableContact;
  definitions: AttributeDefinition[];
  action: Action<EditContactInput>;
  close: () => void;
}) {
  const router = useRouter();
  const { form, submit, formError, pending } = useActionForm({
    schema: editContactSchema.superRefine(checkAttributeValues(definitions)),
    action,
    workspaceId,
    defaultValues: {
      contactId: contact.id,
      firstName: contact.firstName ?? "",
      lastName: contact.lastName ?? "",
      timeZone: contact.timeZone ?? "",
      attributes: attributeDefaults(definitions, contact.attributes, null),
    },
    onSuccess: () => {
      close();
      toast.success("Saved.");
      router.refresh();
    },
  });
  return (
    <form onSubmit={submit} className="grid gap-4" noValidate>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField form={form} name="firstName" label="First name" />
        <TextField form={form} name="lastName" label="Last name" />
      </div>
      <TextField form={form} name="timeZone" label="Time zone" hint={TIME_ZONE_HINT} placeholder="Europe/Berlin" />
      <AttributeFields form={form} definitions={definitions} empty={null} />
      <FormError message={formError} />
      <DialogFooter>
        <Button type="submit" disabled={pending}>
          Save
        </Button>
      </DialogFooter>
    </form>
  );
}

/** The contact's name and custom fields; the address and subscriptions are not edited here. */
export function EditContactDialog(props: {
  workspaceId: string;
  contact: EditableContact;
  definitions: AttributeDefinition[];
  action: Action<EditContactInput>;
}) {
  return (
    <FormDialog
      title="Edit contact"
      description="Each field is a merge tag ({{contact.first_name}}, {{contact.<field>}}); emptying one clears it. Subscriptions do not change."
      trigger={
        <Button variant="outline" size="sm">
          <Pencil />
          Edit contact
        </Button>
      }
    >
      {(close) => <EditContactForm {...props} close={close} />}
    </FormDialog>
  );
}

export function AddToListForm({
  workspaceId,
  contactId,
  lists,
  action,
}: {
  workspaceId: string;
  contactId: string;
  lists: { id: string; name: string }[];
  action: Action<ContactListInput>;
}) {
  const router = useRouter();
  const { form, submit, formError, pending } = useActionForm({
    schema: contactListSchema,
    action,
    workspaceId,
    defaultValues: { contactId, listId: lists[0]?.id ?? "" },
    onSuccess: () => {
      toast.success("Added to the list.");
      router.refresh();
    },
  });
  if (lists.length === 0) return null;
  return (
    <form onSubmit={submit} className="flex flex-wrap items-end gap-2" noValidate>
      <div className="min-w-48 flex-1">
        <SelectField
          form={form}
          name="listId"
          label="Add to list"
          options={lists.map((list) => ({ value: list.id, label: list.name }))}
        />
      </div>
      <Button type="submit" variant="secondary" disabled={pending}>
        Add
      </Button>
      <FormError message={formError} />
    </form>
  );
}

/** Takes one contact off a list; `email` names them where several rows have the button (the list's own page). */
export function RemoveFromListButton({
  workspaceId,
  contactId,
  email,
  list,
  action,
}: {
  workspaceId: string;
  contactId: string;
  email?: string;
  list: { id: string; name: string };
  action: Action<ContactListInput>;
}) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  // An icon alone: the name is its tooltip too.
  const label = email ? `Remove ${email} from ${list.name}` : `Remove from ${list.name}`;
  return (
    <Button
      variant="ghost"
      size="icon"
      className="size-6"
      disabled={pending}
      aria-label={label}
      title={label}
      onClick={() =>
        startTransition(async () => {
          const state = await action(workspaceId, { contactId, listId: list.id });
          if (!state.ok) toast.error(state.message);
          else {
            toast.success(`${email ? `${email} removed` : "Removed"} from ${list.name}. Subscriptions are unchanged.`);
            router.refresh();
          }
        })
      }
    >
      <X />
    </Button>
  );
}

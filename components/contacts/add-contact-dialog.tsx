"use client";

import { UserPlus } from "lucide-react";
import { useRouter } from "next/navigation";
import { toast } from "sonner";

import { attributeDefaults, AttributeFields, type AttributeDefinition } from "@/components/contacts/attribute-fields";
import { FormDialog } from "@/components/forms/form-dialog";
import { CheckboxField, FormError, TextField } from "@/components/forms/form-fields";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { DialogFooter } from "@/components/ui/dialog";
import { Checkbox } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { checkAttributeValues } from "@/lib/contacts/attribute-schemas";
import { addContactSchema, type AddContactInput } from "@/lib/contacts/contact-schemas";
import type { ActionState } from "@/lib/dashboard/action-state";

type AddContact = (
  workspaceId: string,
  input: AddContactInput,
) => Promise<ActionState<{ contactId: string; created: boolean }>>;

/** Fields left empty are not sent: adding a known address must not clear what it holds. */
function withoutEmptyAttributes(input: AddContactInput): AddContactInput {
  const attributes = Object.entries(input.attributes ?? {}).filter(([, value]) => value !== undefined);
  return { ...input, attributes: attributes.length > 0 ? Object.fromEntries(attributes) : undefined };
}

function AddContactForm({
  workspaceId,
  topics,
  attributes,
  action,
  close,
}: {
  workspaceId: string;
  topics: { id: string; name: string }[];
  attributes: AttributeDefinition[];
  action: AddContact;
  close: () => void;
}) {
  const router = useRouter();
  const { form, submit, formError, pending } = useActionForm({
    schema: addContactSchema.superRefine(checkAttributeValues(attributes)),
    action: (id, input) => action(id, withoutEmptyAttributes(input)),
    workspaceId,
    defaultValues: {
      email: "",
      firstName: "",
      lastName: "",
      attributes: attributeDefaults(attributes, {}, undefined),
      topicIds: [],
      consentAsserted: false,
    },
    onSuccess: ({ contactId, created }) => {
      close();
      toast.success(created ? "Contact added." : "That address was already a contact: its fields were merged.");
      router.push(`/w/${workspaceId}/contacts/${contactId}`);
    },
  });
  const chosen = form.watch("topicIds") ?? [];
  return (
    <form onSubmit={submit} className="grid gap-4" noValidate>
      <TextField form={form} name="email" label="Email" type="email" />
      <div className="grid grid-cols-2 gap-4">
        <TextField form={form} name="firstName" label="First name" optional />
        <TextField form={form} name="lastName" label="Last name" optional />
      </div>
      <AttributeFields form={form} definitions={attributes} empty={undefined} />
      {topics.length > 0 && (
        <fieldset className="grid gap-2">
          <legend className="mb-1 text-sm font-medium">Subscribe to</legend>
          {topics.map((topic) => (
            <Label key={topic.id} className="font-normal">
              <Checkbox value={topic.id} {...form.register("topicIds")} />
              {topic.name}
            </Label>
          ))}
          <p className="text-sm text-muted-foreground">
            No confirmation mail is sent: the subscription counts at once.
          </p>
        </fieldset>
      )}
      {Array.isArray(chosen) && chosen.length > 0 && (
        <CheckboxField
          form={form}
          name="consentAsserted"
          label="This person gave me their consent for the topics I ticked"
        />
      )}
      <FormError message={formError} />
      <DialogFooter>
        <Button type="submit" disabled={pending}>
          Add contact
        </Button>
      </DialogFooter>
    </form>
  );
}

export function AddContactDialog(props: {
  workspaceId: string;
  topics: { id: string; name: string }[];
  /** The workspace's custom fields, each offered typed as it was defined. */
  attributes: AttributeDefinition[];
  action: AddContact;
}) {
  return (
    <FormDialog
      title="Add a contact"
      description="Someone who gave you consent. An address that opted out is refused: only the person can resubscribe, from a link in their mail."
      trigger={
        <Button>
          <UserPlus />
          Add contact
        </Button>
      }
    >
      {(close) => <AddContactForm {...props} close={close} />}
    </FormDialog>
  );
}

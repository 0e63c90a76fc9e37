"use client";

import { Plus } from "lucide-react";
import { useRouter } from "next/navigation";
import { toast } from "sonner";

import { FormDialog } from "@/components/forms/form-dialog";
import { FormError, SelectField, TextField } from "@/components/forms/form-fields";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { DialogFooter } from "@/components/ui/dialog";
import { defineAttributeSchema, type AttributeKind, type DefineAttributeInput } from "@/lib/contacts/attribute-schemas";
import type { ActionState } from "@/lib/dashboard/action-state";

export type DefineAttribute = (
  workspaceId: string,
  input: DefineAttributeInput,
) => Promise<ActionState<{ key: string; type: AttributeKind }>>;

/** The types an attribute can have, in the words the forms that define one use. */
export const ATTRIBUTE_TYPE_OPTIONS: { value: AttributeKind; label: string }[] = [
  { value: "string", label: "Text" },
  { value: "number", label: "Number" },
  { value: "boolean", label: "Yes / no" },
  { value: "date", label: "Date" },
];

function DefineAttributeForm({
  workspaceId,
  action,
  close,
}: {
  workspaceId: string;
  action: DefineAttribute;
  close: () => void;
}) {
  const router = useRouter();
  const { form, submit, formError, pending } = useActionForm({
    schema: defineAttributeSchema,
    action,
    workspaceId,
    defaultValues: { key: "", type: "string" },
    onSuccess: ({ key }) => {
      close();
      toast.success(`Defined. Use it as {{contact.${key}}}.`);
      router.refresh();
    },
  });
  return (
    <form onSubmit={submit} className="grid gap-4" noValidate>
      <TextField
        form={form}
        name="key"
        label="Key"
        placeholder="plan"
        hint="Lower-case letters, digits and _, starting with a letter. It cannot be renamed later."
      />
      <SelectField form={form} name="type" label="Type" options={ATTRIBUTE_TYPE_OPTIONS} />
      <FormError message={formError} />
      <DialogFooter>
        <Button type="submit" disabled={pending}>
          Define attribute
        </Button>
      </DialogFooter>
    </form>
  );
}

export function DefineAttributeDialog({ workspaceId, action }: { workspaceId: string; action: DefineAttribute }) {
  return (
    <FormDialog
      title="New custom attribute"
      description="A field every contact can carry, set by the API, your signup form or an import, and usable in campaigns as a merge tag."
      trigger={
        <Button>
          <Plus />
          New attribute
        </Button>
      }
    >
      {(close) => <DefineAttributeForm workspaceId={workspaceId} action={action} close={close} />}
    </FormDialog>
  );
}

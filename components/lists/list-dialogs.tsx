"use client";

import { Pencil, Plus } from "lucide-react";
import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { z } from "zod";

import { FormDialog } from "@/components/forms/form-dialog";
import { FormError, SelectField, TextAreaField, TextField } from "@/components/forms/form-fields";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { DialogFooter } from "@/components/ui/dialog";
import type { ActionState } from "@/lib/dashboard/action-state";
import { createListSchema, updateListSchema, type CreateListInput } from "@/lib/lists/list-schemas";

const editSchema = updateListSchema.extend({ listId: z.string() });
type EditInput = z.input<typeof editSchema>;

function CreateListForm({
  workspaceId,
  brands,
  action,
  close,
}: {
  workspaceId: string;
  brands: { id: string; name: string }[];
  action: (w: string, i: CreateListInput) => Promise<ActionState<{ listId: string }>>;
  close: () => void;
}) {
  const router = useRouter();
  const { form, submit, formError, pending } = useActionForm({
    schema: createListSchema,
    action,
    workspaceId,
    defaultValues: { brandId: brands[0]?.id ?? "", name: "", description: "" },
    onSuccess: () => {
      close();
      toast.success("List created.");
      router.refresh();
    },
  });
  return (
    <form onSubmit={submit} className="grid gap-4" noValidate>
      <SelectField
        form={form}
        name="brandId"
        label="Brand"
        options={brands.map((brand) => ({ value: brand.id, label: brand.name }))}
      />
      <TextField form={form} name="name" label="Name" />
      <TextAreaField form={form} name="description" label="Description" hint="Optional." rows={2} />
      <FormError message={formError} />
      <DialogFooter>
        <Button type="submit" disabled={pending}>
          Create list
        </Button>
      </DialogFooter>
    </form>
  );
}

export function CreateListDialog(props: {
  workspaceId: string;
  brands: { id: string; name: string }[];
  action: (w: string, i: CreateListInput) => Promise<ActionState<{ listId: string }>>;
}) {
  return (
    <FormDialog
      title="New list"
      description="Your own grouping of contacts, such as customers or event guests. A campaign sent to a list reaches only those members subscribed to its topic."
      trigger={
        <Button>
          <Plus />
          New list
        </Button>
      }
    >
      {(close) => <CreateListForm {...props} close={close} />}
    </FormDialog>
  );
}

function EditListForm({
  workspaceId,
  list,
  action,
  close,
}: {
  workspaceId: string;
  list: { id: string; name: string; description: string };
  action: (w: string, i: EditInput) => Promise<ActionState<{ listId: string }>>;
  close: () => void;
}) {
  const router = useRouter();
  const { form, submit, formError, pending } = useActionForm({
    schema: editSchema,
    action,
    workspaceId,
    defaultValues: { listId: list.id, name: list.name, description: list.description },
    onSuccess: () => {
      close();
      toast.success("List saved.");
      router.refresh();
    },
  });
  return (
    <form onSubmit={submit} className="grid gap-4" noValidate>
      <TextField form={form} name="name" label="Name" />
      <TextAreaField form={form} name="description" label="Description" rows={2} />
      <FormError message={formError} />
      <DialogFooter>
        <Button type="submit" disabled={pending}>
          Save list
        </Button>
      </DialogFooter>
    </form>
  );
}

export function EditListDialog(props: {
  workspaceId: string;
  list: { id: string; name: string; description: string };
  action: (w: string, i: EditInput) => Promise<ActionState<{ listId: string }>>;
}) {
  return (
    <FormDialog
      title={`Rename ${props.list.name}`}
      trigger={
        <Button variant="outline" size="sm" aria-label={`Rename ${props.list.name}`}>
          <Pencil />
          Rename
        </Button>
      }
    >
      {(close) => <EditListForm {...props} close={close} />}
    </FormDialog>
  );
}

export function DeleteListButton({
  workspaceId,
  list,
  action,
}: {
  workspaceId: string;
  list: { id: string; name: string };
  action: (w: string, i: { listId: string }) => Promise<ActionState<unknown>>;
}) {
  const router = useRouter();
  return (
    <ConfirmButton
      label="Delete"
      title={`Delete ${list.name}?`}
      description="The list and its memberships go. Nobody is unsubscribed: the members keep their topic subscriptions and stay in your contacts."
      confirmLabel="Delete list"
      onConfirm={async () => {
        const state = await action(workspaceId, { listId: list.id });
        if (!state.ok) return { error: state.message };
        toast.success(`${list.name} deleted.`);
        router.push(`/w/${workspaceId}/lists`);
        router.refresh();
      }}
    />
  );
}

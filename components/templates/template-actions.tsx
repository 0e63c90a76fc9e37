"use client";

import { Copy, Pencil, Trash2 } from "lucide-react";
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
import { renameTemplateSchema, type RenameTemplateInput } from "@/lib/templates/template-schemas";

type Template = { id: string; name: string };
type OneTemplate = (workspaceId: string, input: { templateId: string }) => Promise<ActionState<{ templateId: string }>>;

function RenameTemplateForm({
  workspaceId,
  template,
  action,
  close,
}: {
  workspaceId: string;
  template: Template;
  action: (workspaceId: string, input: RenameTemplateInput) => Promise<ActionState<{ templateId: string }>>;
  close: () => void;
}) {
  const router = useRouter();
  const { form, submit, formError, pending } = useActionForm({
    schema: renameTemplateSchema,
    action,
    workspaceId,
    defaultValues: { templateId: template.id, name: template.name },
    onSuccess: () => {
      close();
      toast.success("Template renamed.");
      router.refresh();
    },
  });
  return (
    <form onSubmit={submit} className="grid gap-4" noValidate>
      <TextField form={form} name="name" label="Template name" />
      <FormError message={formError} />
      <DialogFooter>
        <Button type="submit" disabled={pending}>
          Save name
        </Button>
      </DialogFooter>
    </form>
  );
}

export function RenameTemplateDialog(props: {
  workspaceId: string;
  template: Template;
  action: (workspaceId: string, input: RenameTemplateInput) => Promise<ActionState<{ templateId: string }>>;
}) {
  return (
    <FormDialog
      title={`Rename ${props.template.name}`}
      trigger={
        <Button variant="outline" size="sm">
          <Pencil />
          Rename
        </Button>
      }
    >
      {(close) => <RenameTemplateForm {...props} close={close} />}
    </FormDialog>
  );
}

/** Makes a copy and opens it, to change without touching the original. */
export function DuplicateTemplateButton({
  workspaceId,
  template,
  action,
}: {
  workspaceId: string;
  template: Template;
  action: OneTemplate;
}) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const duplicate = () =>
    startTransition(async () => {
      const state = await action(workspaceId, { templateId: template.id });
      if (!state.ok) return void toast.error(state.message);
      toast.success(`Copied ${template.name}.`);
      router.push(`/w/${workspaceId}/templates/${state.result.templateId}`);
    });
  return (
    <Button variant="outline" size="sm" onClick={duplicate} disabled={pending}>
      <Copy />
      Duplicate
    </Button>
  );
}

export function DeleteTemplateButton({
  workspaceId,
  template,
  action,
}: {
  workspaceId: string;
  template: Template;
  action: OneTemplate;
}) {
  const router = useRouter();
  return (
    <ConfirmButton
      label={
        <>
          <Trash2 />
          Delete
        </>
      }
      title={`Delete ${template.name}?`}
      description="The template goes. Campaigns started from it keep their content."
      confirmLabel="Delete template"
      onConfirm={async () => {
        const state = await action(workspaceId, { templateId: template.id });
        if (!state.ok) return { error: state.message };
        toast.success(`${template.name} deleted.`);
        router.push(`/w/${workspaceId}/templates`);
        router.refresh();
      }}
    />
  );
}

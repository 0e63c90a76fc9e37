"use client";

import type { ReactNode } from "react";

import { FormDialog } from "@/components/forms/form-dialog";
import { FormError, SelectField, TextAreaField, TextField } from "@/components/forms/form-fields";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { DialogFooter } from "@/components/ui/dialog";
import {
  ERASE_CONFIRMATION,
  startBulkActionSchema,
  type BulkActionKind,
  type StartBulkActionInput,
} from "@/lib/contacts/bulk-action-schemas";
import type { ContactCountQuery } from "@/lib/contacts/contact-list-query";
import type { ActionState } from "@/lib/dashboard/action-state";

import type { FilterOption } from "./contacts-toolbar";

export type StartBulkAction = (
  workspaceId: string,
  input: StartBulkActionInput,
) => Promise<ActionState<{ bulkActionId: string }>>;

/** Whom the action is for: the ticked contacts, or everyone the filters match. */
export type BulkTarget = { contactIds: string[] } | { filters: ContactCountQuery };

interface BulkActionDialogProps {
  workspaceId: string;
  kind: BulkActionKind;
  target: BulkTarget;
  /** "3 contacts", "all 12,345 contacts matching": said in the dialog. */
  whom: string;
  lists: FilterOption[];
  topics: FilterOption[];
  action: StartBulkAction;
  onStarted: (bulkActionId: string) => void;
  trigger: ReactNode;
}

const TITLES: Record<BulkActionKind, string> = {
  add_to_list: "Add to a list",
  remove_from_list: "Take off a list",
  unsubscribe: "Unsubscribe at their request",
  erase: "Erase these people",
};

function BulkActionForm({
  workspaceId,
  kind,
  target,
  whom,
  lists,
  topics,
  action,
  onStarted,
  close,
}: BulkActionDialogProps & { close: () => void }) {
  const { form, submit, formError, pending } = useActionForm({
    schema: startBulkActionSchema,
    action,
    workspaceId,
    defaultValues: { kind, ...target, listId: lists[0]?.id ?? "", topicId: "", note: "", confirmation: "" },
    onSuccess: ({ bulkActionId }) => {
      close();
      onStarted(bulkActionId);
    },
  });
  return (
    <form onSubmit={submit} className="grid gap-4" noValidate>
      {(kind === "add_to_list" || kind === "remove_from_list") && (
        <SelectField
          form={form}
          name="listId"
          label="List"
          options={lists.map((list) => ({ value: list.id, label: list.name }))}
        />
      )}
      {kind === "unsubscribe" && (
        <>
          <SelectField
            form={form}
            name="topicId"
            label="From"
            options={[
              { value: "", label: "Everything (every topic of every brand)" },
              ...topics.map((topic) => ({ value: topic.id, label: topic.name })),
            ]}
          />
          <TextAreaField
            form={form}
            name="note"
            label="How did they ask?"
            hint="For example “letters received in March”. Kept with your name in each contact's timeline."
          />
        </>
      )}
      {kind === "erase" && (
        <TextField
          form={form}
          name="confirmation"
          label={`Type ${ERASE_CONFIRMATION} to erase ${whom}`}
          autoComplete="off"
        />
      )}
      <FormError message={formError} />
      <DialogFooter>
        <Button
          type="submit"
          variant={kind === "erase" || kind === "unsubscribe" ? "destructive" : "default"}
          disabled={pending}
        >
          {kind === "erase" ? "Erase for good" : `${TITLES[kind]}`}
        </Button>
      </DialogFooter>
    </form>
  );
}

/** One bulk action's dialog: what it needs (a list, a note, the confirmation), then it starts in the background. */
export function BulkActionDialog(props: BulkActionDialogProps) {
  const { kind, whom } = props;
  const description = {
    add_to_list: `Adds ${whom} to the list. Nobody is subscribed to anything by it.`,
    remove_from_list: `Takes ${whom} off the list. Nobody is unsubscribed by it.`,
    unsubscribe: `For people who asked you to stop some other way than your links: ${whom} are unsubscribed as their own link would, your webhooks get contact.unsubscribed, and only they can resubscribe.`,
    erase: `Everything you hold about ${whom} is deleted for good, as on a contact's page: their data, consent evidence, lists, suppressions, their address in sends, events and stored mail. Queued mail to them is not sent. No import or API call adds them again.`,
  }[kind];
  return (
    <FormDialog title={TITLES[kind]} description={description} trigger={props.trigger}>
      {(close) => <BulkActionForm {...props} close={close} />}
    </FormDialog>
  );
}

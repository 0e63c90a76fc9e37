"use client";

import { BellOff } from "lucide-react";
import { useRouter } from "next/navigation";
import { toast } from "sonner";

import { FormDialog } from "@/components/forms/form-dialog";
import { FormError, TextAreaField } from "@/components/forms/form-fields";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { DialogFooter } from "@/components/ui/dialog";
import type { ActionState } from "@/lib/dashboard/action-state";
import { unsubscribeOnBehalfSchema, type UnsubscribeOnBehalfInput } from "@/lib/subscriptions/subscription-schemas";

type Unsubscribe = (workspaceId: string, input: UnsubscribeOnBehalfInput) => Promise<ActionState<{ changed: boolean }>>;

interface UnsubscribeProps {
  workspaceId: string;
  contact: { id: string; email: string };
  /** null: from everything. */
  topic: { id: string; name: string } | null;
  action: Unsubscribe;
}

function UnsubscribeForm({ workspaceId, contact, topic, action, close }: UnsubscribeProps & { close: () => void }) {
  const router = useRouter();
  const { form, submit, formError, pending } = useActionForm({
    schema: unsubscribeOnBehalfSchema,
    action,
    workspaceId,
    defaultValues: { contactId: contact.id, topicId: topic?.id ?? null, note: "" },
    onSuccess: ({ changed }) => {
      close();
      if (changed) toast.success(topic ? `Unsubscribed from ${topic.name}.` : "Unsubscribed from everything.");
      else toast.info("They were already unsubscribed: nothing changed.");
      router.refresh();
    },
  });
  return (
    <form onSubmit={submit} className="grid gap-4" noValidate>
      <TextAreaField
        form={form}
        name="note"
        label="How did they ask?"
        hint="For example “asked by phone” or “replied to the March newsletter”. Kept with your name in the contact's timeline."
      />
      <FormError message={formError} />
      <DialogFooter>
        <Button type="submit" variant="destructive" disabled={pending}>
          Unsubscribe
        </Button>
      </DialogFooter>
    </form>
  );
}

/**
 * Unsubscribes a contact for the person, who asked some other way than the link in your mail:
 * from one topic, or from everything. There is no way back from here: only the person can
 * resubscribe, from a link in mail they received.
 */
export function UnsubscribeDialog(props: UnsubscribeProps) {
  const { contact, topic } = props;
  return (
    <FormDialog
      title={topic ? `Unsubscribe from ${topic.name}` : "Unsubscribe from everything"}
      description={
        <>
          For when {contact.email} asked you to stop{" "}
          {topic ? "this topic" : "all your mail: every topic of every brand, topics created later included"}. It works
          as their own unsubscribe link does, your webhooks get contact.unsubscribed, and only they can resubscribe.
        </>
      }
      trigger={
        topic ? (
          <Button variant="outline" size="sm" aria-label={`Unsubscribe from ${topic.name}`}>
            Unsubscribe
          </Button>
        ) : (
          <Button variant="outline" size="sm" className="text-destructive">
            <BellOff />
            Unsubscribe from everything
          </Button>
        )
      }
    >
      {(close) => <UnsubscribeForm {...props} close={close} />}
    </FormDialog>
  );
}

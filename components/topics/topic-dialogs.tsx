"use client";

import { Pencil, Plus } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "sonner";
import type { z } from "zod";

import { FormError, SelectField } from "@/components/forms/form-fields";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { ConfirmButton } from "@/components/ui/confirm-button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/components/ui/dialog";
import type { ActionState } from "@/lib/dashboard/action-state";
import {
  createTopicFormSchema as createSchema,
  editTopicFormSchema as editSchema,
} from "@/lib/topics/topic-form-schema";

import { TopicFields } from "./topic-fields";

type CreateInput = z.input<typeof createSchema>;
type EditInput = z.input<typeof editSchema>;

export function CreateTopicDialog({
  workspaceId,
  brands,
  action,
}: {
  workspaceId: string;
  brands: { id: string; name: string }[];
  action: (workspaceId: string, input: CreateInput) => Promise<ActionState<{ topicId: string }>>;
}) {
  const [open, setOpen] = useState(false);
  const router = useRouter();
  const { form, submit, formError, pending } = useActionForm({
    schema: createSchema,
    action,
    workspaceId,
    defaultValues: {
      brandId: brands[0]?.id ?? "",
      name: "",
      description: "",
      requiresConfirmation: true,
      consentAsserted: false,
    },
    onSuccess: () => {
      setOpen(false);
      form.reset();
      toast.success("Topic created.");
      router.refresh();
    },
  });
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button>
          <Plus />
          New topic
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>New topic</DialogTitle>
          <DialogDescription>
            What people consent to receive. Signup forms subscribe to a topic, and every campaign goes to one.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <SelectField
            form={form}
            name="brandId"
            label="Brand"
            options={brands.map((brand) => ({ value: brand.id, label: brand.name }))}
          />
          <TopicFields form={form} />
          <FormError message={formError} />
          <DialogFooter>
            <Button type="submit" disabled={pending}>
              Create topic
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

export function EditTopicDialog({
  workspaceId,
  topic,
  action,
}: {
  workspaceId: string;
  topic: { id: string; name: string; description: string; requiresConfirmation: boolean };
  action: (workspaceId: string, input: EditInput) => Promise<ActionState<{ topicId: string }>>;
}) {
  const [open, setOpen] = useState(false);
  const router = useRouter();
  const { form, submit, formError, pending } = useActionForm({
    schema: editSchema,
    action,
    workspaceId,
    defaultValues: {
      topicId: topic.id,
      name: topic.name,
      description: topic.description,
      requiresConfirmation: topic.requiresConfirmation,
      consentAsserted: false,
    },
    onSuccess: () => {
      setOpen(false);
      toast.success("Topic saved.");
      router.refresh();
    },
  });
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" aria-label={`Edit ${topic.name}`}>
          <Pencil />
          Edit
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Edit {topic.name}</DialogTitle>
          <DialogDescription>
            Changes apply to new signups; existing subscribers keep their subscription.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <TopicFields form={form} />
          <FormError message={formError} />
          <DialogFooter>
            <Button type="submit" disabled={pending}>
              Save topic
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

export function ArchiveTopicButton({
  workspaceId,
  topic,
  action,
}: {
  workspaceId: string;
  topic: { id: string; name: string };
  action: (workspaceId: string, input: { topicId: string }) => Promise<ActionState<unknown>>;
}) {
  const router = useRouter();
  return (
    <ConfirmButton
      label="Archive"
      variant="outline"
      title={`Archive ${topic.name}?`}
      description="An archived topic takes no new subscribers and signup forms naming it are refused. Its subscribers, history and reports stay."
      confirmLabel="Archive topic"
      onConfirm={async () => {
        const state = await action(workspaceId, { topicId: topic.id });
        if (!state.ok) return { error: state.message };
        toast.success(`${topic.name} archived.`);
        router.refresh();
      }}
    />
  );
}

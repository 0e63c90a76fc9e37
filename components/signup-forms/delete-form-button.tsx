"use client";

import { useRouter } from "next/navigation";
import { toast } from "sonner";

import { ConfirmButton } from "@/components/ui/confirm-button";
import type { ActionState } from "@/lib/dashboard/action-state";

export function DeleteFormButton({
  workspaceId,
  formId,
  name,
  action,
}: {
  workspaceId: string;
  formId: string;
  name: string;
  action: (workspaceId: string, input: { formId: string }) => Promise<ActionState<unknown>>;
}) {
  const router = useRouter();
  return (
    <ConfirmButton
      label="Delete form"
      variant="outline"
      title={`Delete ${name}?`}
      description="Copies on your site stop working at once and say the form cannot be found. The people it signed up keep their subscriptions; its counts are gone."
      confirmLabel="Delete form"
      onConfirm={async () => {
        const state = await action(workspaceId, { formId });
        if (!state.ok) return { error: state.message };
        toast.success("Form deleted.");
        router.push(`/w/${workspaceId}/forms`);
      }}
    />
  );
}

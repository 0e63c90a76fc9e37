"use client";

import { useRouter } from "next/navigation";
import { toast } from "sonner";

import { ConfirmButton } from "@/components/ui/confirm-button";
import type { ActionState } from "@/lib/dashboard/action-state";

export function DeleteSegmentButton({
  workspaceId,
  segment,
  action,
}: {
  workspaceId: string;
  segment: { id: string; name: string };
  action: (w: string, i: { segmentId: string }) => Promise<ActionState<unknown>>;
}) {
  const router = useRouter();
  return (
    <ConfirmButton
      label="Delete"
      title={`Delete ${segment.name}?`}
      description="The saved rule goes; no contact changes. A segment a campaign uses stays."
      confirmLabel="Delete segment"
      onConfirm={async () => {
        const state = await action(workspaceId, { segmentId: segment.id });
        if (!state.ok) return { error: state.message };
        toast.success(`${segment.name} deleted.`);
        router.push(`/w/${workspaceId}/segments`);
        router.refresh();
      }}
    />
  );
}

"use client";

import { useRouter } from "next/navigation";
import { toast } from "sonner";

import { ConfirmButton } from "@/components/ui/confirm-button";
import type { ActionState } from "@/lib/dashboard/action-state";

export function RevokeKeyButton({
  workspaceId,
  keyId,
  label,
  action,
}: {
  workspaceId: string;
  keyId: string;
  label: string;
  action: (workspaceId: string, input: { keyId: string }) => Promise<ActionState<unknown>>;
}) {
  const router = useRouter();
  return (
    <ConfirmButton
      label="Revoke"
      variant="outline"
      title={`Revoke ${label}?`}
      description="The key stops working on its next request, with no grace period. Anything still using it fails until it has a new key."
      confirmLabel="Revoke key"
      onConfirm={async () => {
        const state = await action(workspaceId, { keyId });
        if (!state.ok) return { error: state.message };
        toast.success("Key revoked.");
        router.refresh();
      }}
    />
  );
}

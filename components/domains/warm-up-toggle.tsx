"use client";

import { Flame } from "lucide-react";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { toast } from "sonner";

import { Button } from "@/components/ui/button";
import type { ActionState } from "@/lib/dashboard/action-state";

/** Turns a domain's warm-up on or off, then shows the page afresh. */
export function WarmUpToggle({
  workspaceId,
  domainId,
  enabled,
  action,
}: {
  workspaceId: string;
  domainId: string;
  enabled: boolean;
  action: (workspaceId: string, input: { domainId: string; enabled: boolean }) => Promise<ActionState<unknown>>;
}) {
  const router = useRouter();
  const [pending, start] = useTransition();
  return (
    <Button
      variant="outline"
      size="sm"
      disabled={pending}
      data-testid="warm-up-toggle"
      onClick={() =>
        start(async () => {
          const state = await action(workspaceId, { domainId, enabled: !enabled });
          if (!state.ok) return void toast.error(state.message);
          toast.success(
            enabled ? "Warm-up is off: no daily cap." : "Warm-up is on: campaigns follow the daily cap from now.",
          );
          router.refresh();
        })
      }
    >
      <Flame />
      {enabled ? "Turn warm-up off" : "Turn warm-up on"}
    </Button>
  );
}

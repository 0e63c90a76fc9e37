"use client";

import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { toast } from "sonner";

import { ConfirmButton } from "@/components/ui/confirm-button";
import type { ActionState } from "@/lib/dashboard/action-state";

type Act<I> = (targetId: string, input: I) => Promise<ActionState<unknown>>;

/** One confirmed operator step on a workspace (or one of its invoices) or a workflow run: `targetId` names it. */
export function OperatorStepButton<I>({
  targetId,
  input,
  action,
  label,
  title,
  description,
  done,
  destructive = false,
}: {
  targetId: string;
  input: I;
  action: Act<I>;
  label: string;
  title: string;
  description: string;
  done: string;
  destructive?: boolean;
}) {
  const router = useRouter();
  const [, startTransition] = useTransition();
  return (
    <ConfirmButton
      label={label}
      variant={destructive ? "destructive" : "outline"}
      title={title}
      description={description}
      confirmLabel={label}
      onConfirm={async () => {
        const state = await action(targetId, input);
        if (!state.ok) return { error: state.message };
        toast.success(done);
        startTransition(() => router.refresh());
      }}
    />
  );
}

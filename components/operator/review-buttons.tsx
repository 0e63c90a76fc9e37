"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { toast } from "sonner";

import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Textarea } from "@/components/ui/input";
import type { ActionState } from "@/lib/dashboard/action-state";

type Decide = (input: {
  id: string;
  decision: "approve" | "reject";
  reason: string;
  seenUpdatedAt?: string;
}) => Promise<ActionState<{ mailed: number }>>;

/** Approve, or reject with a reason the owners receive by mail. */
export function ReviewButtons({
  id,
  label,
  action,
  seenUpdatedAt,
}: {
  id: string;
  label: string;
  action: Decide;
  seenUpdatedAt?: string;
}) {
  const router = useRouter();
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string>();
  const [pending, start] = useTransition();
  const decide = (decision: "approve" | "reject") =>
    start(async () => {
      setError(undefined);
      const state = await action({ id, decision, reason, seenUpdatedAt });
      if (!state.ok) return setError(state.fieldErrors.reason ?? state.message);
      toast.success(
        `${label} ${decision === "approve" ? "approved" : "rejected"}; ${state.result.mailed} owner${state.result.mailed === 1 ? "" : "s"} mailed.`,
      );
      setReason("");
      router.refresh();
    });
  return (
    <div className="grid gap-2">
      <Field
        id={`reason-${id}`}
        label="Reason or note for the owners"
        hint="Required to reject: say what to change."
        error={error}
      >
        {(aria) => <Textarea {...aria} rows={2} value={reason} onChange={(event) => setReason(event.target.value)} />}
      </Field>
      <div className="flex gap-2">
        <Button disabled={pending} onClick={() => decide("approve")}>
          Approve
        </Button>
        <Button variant="outline" disabled={pending} onClick={() => decide("reject")}>
          Reject
        </Button>
      </div>
    </div>
  );
}

"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";

import { Button } from "@/components/ui/button";
import { ConfirmButton } from "@/components/ui/confirm-button";
import type { ActionState } from "@/lib/dashboard/action-state";
import type { ImportStatus } from "@/lib/db/schema/imports";
import { canStart, isApplying } from "@/lib/imports/import-status";

type ImportAction = (workspaceId: string, input: { importId: string }) => Promise<ActionState<void>>;

/** Apply a checked import, or stop one: before its apply it is dropped, during it the apply stops at the next chunk. */
export function ImportControls({
  workspaceId,
  importId,
  status,
  toImport,
  start,
  cancel,
}: {
  workspaceId: string;
  importId: string;
  status: ImportStatus;
  toImport: number;
  start: ImportAction;
  cancel: ImportAction;
}) {
  const router = useRouter();
  const [error, setError] = useState<string>();
  const [pending, startTransition] = useTransition();
  const run = (action: ImportAction) => async () => {
    const state = await action(workspaceId, { importId });
    if (!state.ok) return { error: state.message };
    router.refresh();
  };
  return (
    <div className="grid gap-2">
      <div className="flex flex-wrap items-center gap-2">
        {canStart(status) && (
          <Button
            disabled={pending}
            onClick={() =>
              startTransition(async () => {
                const outcome = await run(start)();
                setError(outcome?.error);
              })
            }
          >
            {toImport > 0 ? `Import ${toImport.toLocaleString("en")} contacts` : "Apply the import"}
          </Button>
        )}
        <ConfirmButton
          variant="outline"
          size="default"
          label={isApplying(status) ? "Stop the import" : "Discard"}
          title={isApplying(status) ? "Stop this import?" : "Discard this import?"}
          description={
            isApplying(status)
              ? "Rows already imported stay; the rest are not imported."
              : "Nothing has been imported from this file. You can upload it again later."
          }
          confirmLabel={isApplying(status) ? "Stop" : "Discard"}
          onConfirm={run(cancel)}
        />
      </div>
      {error && (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}

"use client";

import { TriangleAlert } from "lucide-react";

import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";

// A failure while rendering a screen: say so, keep the shell, offer to try again. The details stay in the server log.
export default function WorkspaceError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <EmptyState
      icon={<TriangleAlert />}
      title="This screen could not be shown"
      action={<Button onClick={reset}>Try again</Button>}
    >
      Something went wrong on our side. Nothing was changed.
    </EmptyState>
  );
}

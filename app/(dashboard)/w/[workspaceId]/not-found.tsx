import Link from "next/link";

import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";

export default function WorkspaceNotFound() {
  return (
    <EmptyState
      title="Not found"
      action={
        <Button asChild variant="outline">
          <Link href="/">Back to your workspaces</Link>
        </Button>
      }
    >
      There is nothing here, or it belongs to a workspace you are not a member of.
    </EmptyState>
  );
}

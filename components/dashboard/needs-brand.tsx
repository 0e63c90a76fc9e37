import { Building2 } from "lucide-react";
import Link from "next/link";

import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";

/** Topics and lists belong to a brand: before the first brand, their screens send the sender there. */
export function NeedsBrand({ workspaceId, what }: { workspaceId: string; what: "Topics" | "Lists" | "Domains" }) {
  return (
    <EmptyState
      icon={<Building2 />}
      title="Add a brand first"
      action={
        <Button asChild>
          <Link href={`/w/${workspaceId}/brands`}>Go to brands</Link>
        </Button>
      }
    >
      {what} belong to a brand, which says who the mail is from.
    </EmptyState>
  );
}

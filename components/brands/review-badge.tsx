import { Badge } from "@/components/ui/badge";

export function ReviewBadge({ status, held }: { status: "pending" | "approved" | "rejected"; held: boolean }) {
  return (
    <span className="inline-flex flex-wrap gap-1">
      {status === "approved" && <Badge variant="success">Approved</Badge>}
      {status === "pending" && <Badge variant="warning">In review</Badge>}
      {status === "rejected" && <Badge variant="destructive">Rejected</Badge>}
      {held && <Badge variant="outline">Sending held</Badge>}
    </span>
  );
}

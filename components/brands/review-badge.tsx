import { Badge } from "@/components/ui/badge";

/** A self-review: the decision was taken by the service's only operator, a member of this workspace. */
export function ReviewBadge({
  status,
  held,
  selfReviewed = false,
}: {
  status: "pending" | "approved" | "rejected";
  held: boolean;
  selfReviewed?: boolean;
}) {
  return (
    <span className="inline-flex flex-wrap gap-1">
      {status === "approved" && <Badge variant="success">Approved</Badge>}
      {status === "pending" && <Badge variant="warning">In review</Badge>}
      {status === "rejected" && <Badge variant="destructive">Rejected</Badge>}
      {status !== "pending" && selfReviewed && (
        <Badge variant="outline" title="Decided by the service's only operator, a member of this workspace">
          Self-review
        </Badge>
      )}
      {held && <Badge variant="outline">Sending held</Badge>}
    </span>
  );
}

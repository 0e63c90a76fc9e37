import { Badge } from "@/components/ui/badge";
import type { ImportStatus } from "@/lib/db/schema/imports";

const STATUS: Record<
  ImportStatus,
  { label: string; variant: "secondary" | "outline" | "warning" | "success" | "default" | "destructive" }
> = {
  uploaded: { label: "Needs mapping", variant: "outline" },
  checked: { label: "Checked", variant: "secondary" },
  applying: { label: "Importing", variant: "default" },
  completed: { label: "Imported", variant: "success" },
  cancelled: { label: "Cancelled", variant: "secondary" },
  failed: { label: "Failed", variant: "destructive" },
};

export function ImportStatusBadge({ status }: { status: ImportStatus }) {
  const { label, variant } = STATUS[status];
  return <Badge variant={variant}>{label}</Badge>;
}

import { Badge } from "@/components/ui/badge";
import type { CampaignStatus } from "@/lib/db/schema";

const STATUS: Record<
  CampaignStatus,
  { label: string; variant: "secondary" | "outline" | "warning" | "success" | "default" | "destructive" }
> = {
  draft: { label: "Draft", variant: "outline" },
  scheduled: { label: "Scheduled", variant: "secondary" },
  sending: { label: "Sending", variant: "default" },
  paused: { label: "Paused", variant: "warning" },
  sent: { label: "Sent", variant: "success" },
  cancelled: { label: "Cancelled", variant: "secondary" },
};

export function CampaignStatusBadge({ status }: { status: CampaignStatus }) {
  const { label, variant } = STATUS[status];
  return <Badge variant={variant}>{label}</Badge>;
}

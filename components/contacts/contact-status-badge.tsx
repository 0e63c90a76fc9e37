import { Badge } from "@/components/ui/badge";

const STATUS = {
  subscribed: { label: "Subscribed", variant: "success" },
  unsubscribed: { label: "Unsubscribed", variant: "secondary" },
  bounced: { label: "Bounced", variant: "warning" },
  complained: { label: "Complained", variant: "destructive" },
} as const;

export function ContactStatusBadge({ status }: { status: keyof typeof STATUS }) {
  const { label, variant } = STATUS[status];
  return <Badge variant={variant}>{label}</Badge>;
}

import { Badge } from "@/components/ui/badge";
import { CONTACT_STATUS_LABELS, type ContactStatus } from "@/lib/contacts/contact-status";

export function ContactStatusBadge({ status }: { status: ContactStatus }) {
  const { label, tone } = CONTACT_STATUS_LABELS[status];
  return <Badge variant={tone}>{label}</Badge>;
}

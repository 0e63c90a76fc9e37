import { Badge } from "@/components/ui/badge";

export const DOMAIN_STATE_LABELS: Record<
  string,
  { label: string; variant: "success" | "warning" | "destructive" | "secondary"; explain: string }
> = {
  pending: {
    label: "Waiting for DNS",
    variant: "secondary",
    explain:
      "Publish the records below at your DNS host, then check again. Changes can take a few minutes to an hour to show.",
  },
  verified: {
    label: "Verified, registering",
    variant: "warning",
    explain: "The records are right. The mail carrier is still registering the domain: check again in a few minutes.",
  },
  ready: {
    label: "Ready",
    variant: "success",
    explain: "Mail from this domain is signed with its own key and can be sent.",
  },
  registration_failed: {
    label: "Registration failed",
    variant: "destructive",
    explain: "The records are right, but the mail carrier refused the domain. Fix what it says, then re-sync.",
  },
  records_missing: {
    label: "Records missing",
    variant: "destructive",
    explain:
      "The domain was verified, but a record has since disappeared or changed. Publish it again: until then mail may land in spam or be refused.",
  },
};

export function DomainStateBadge({ state }: { state: string }) {
  const known = DOMAIN_STATE_LABELS[state] ?? { label: state, variant: "secondary" as const };
  return <Badge variant={known.variant}>{known.label}</Badge>;
}

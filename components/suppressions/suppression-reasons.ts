/** How each suppression reason is named and coloured wherever one is shown. */
export const SUPPRESSION_REASONS: Record<string, { label: string; variant: "destructive" | "warning" | "secondary" }> =
  {
    complaint: { label: "Complaint", variant: "destructive" },
    bounce: { label: "Bounce", variant: "warning" },
    soft_bounce: { label: "Repeated soft bounces", variant: "warning" },
    manual: { label: "Manual", variant: "secondary" },
  };

export const reasonOf = (reason: string) =>
  SUPPRESSION_REASONS[reason] ?? { label: reason, variant: "secondary" as const };

import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { AudiencePreview, ExclusionReason } from "@/lib/campaigns/preview-audience";

const LABELS: Record<Exclude<ExclusionReason, `missing_merge_tag:${string}`>, string> = {
  not_subscribed: "On the list, not subscribed to the topic",
  pending_confirmation: "Has not confirmed the subscription yet",
  unsubscribed: "Unsubscribed",
  not_on_list: "Subscribed, not on the list",
  suppressed_complaint: "Suppressed: marked your mail as spam",
  suppressed_bounce: "Suppressed: the address bounced",
  suppressed_soft_bounce: "Suppressed: repeated soft bounces",
  suppressed_address: "Suppressed address",
  suppressed_domain: "Suppressed domain",
  not_verified: "Not one of your verified addresses (workspace in review)",
  over_allowance: "Over your plan's sending allowance for this period",
};

export function exclusionLabel(reason: ExclusionReason): string {
  return reason.startsWith("missing_merge_tag:") ? `No value for {{${reason.slice("missing_merge_tag:".length)}}}` : LABELS[reason as keyof typeof LABELS];
}

/** Who the campaign goes to if sent now, and every reason the others do not, with the first few addresses. */
export function AudiencePreviewTable({ preview }: { preview: AudiencePreview }) {
  return (
    <div className="grid gap-3">
      <p className="text-sm">
        <span className="text-2xl font-semibold tabular-nums" data-testid="audience-recipients">
          {preview.recipients.toLocaleString("en")}
        </span>{" "}
        {preview.recipients === 1 ? "person gets" : "people get"} this mail if you send it now.
      </p>
      {preview.exclusions.length > 0 && (
        <Table aria-label="Left out">
          <TableHeader>
            <TableRow>
              <TableHead>Left out because</TableHead>
              <TableHead className="text-right">People</TableHead>
              <TableHead>For example</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {preview.exclusions.map((exclusion) => (
              <TableRow key={exclusion.reason}>
                <TableCell>{exclusionLabel(exclusion.reason)}</TableCell>
                <TableCell className="text-right tabular-nums">{exclusion.count.toLocaleString("en")}</TableCell>
                <TableCell className="max-w-xs truncate text-muted-foreground" title={exclusion.sample.join(", ")}>
                  {exclusion.sample.join(", ")}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </div>
  );
}

import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import type { AlignmentCheck, AlignmentReport, AlignmentStatus } from "@/lib/domains/dmarc-alignment";

const STATUS: Record<AlignmentStatus, { label: string; variant: "success" | "destructive" | "warning" }> = {
  pass: { label: "Pass", variant: "success" },
  fail: { label: "Fail", variant: "destructive" },
  waiting: { label: "Waiting", variant: "warning" },
};

function AlignmentRow({ name, check, testId }: { name: string; check: AlignmentCheck; testId: string }) {
  const status = STATUS[check.status];
  return (
    <li className="grid gap-1 text-sm" data-testid={testId} data-status={check.status}>
      <span className="flex flex-wrap items-center gap-2">
        <span className="font-medium">{name}</span>
        <Badge variant={status.variant}>{status.label}</Badge>
      </span>
      {/* Record values and domain names are long words: they wrap anywhere rather than widen a phone's page. */}
      <span className="[overflow-wrap:anywhere] text-muted-foreground">{check.summary}</span>
      {check.advice && (
        <span className={`[overflow-wrap:anywhere] ${check.status === "fail" ? "text-destructive" : ""}`}>
          {check.status === "fail" ? "To fix: " : "Next: "}
          {check.advice}
        </span>
      )}
    </li>
  );
}

/**
 * DMARC alignment as receivers judge it: the policy, then DKIM's d= and the return path's domain
 * against the From domain, each with what to change (lib/domains/dmarc-alignment.ts).
 */
export function AlignmentCard({
  report,
  carrierNote,
  feedbackId,
  carrierSigns,
}: {
  report: AlignmentReport;
  /** Where the signing and bounce domains come from on this installation. */
  carrierNote: string;
  /** The Feedback-ID this workspace's campaign mail carries, with the campaign and brand as placeholders. */
  feedbackId: string;
  /** The carrier (Resend) signs, not the service: which headers its signature covers is its own choice. */
  carrierSigns: boolean;
}) {
  return (
    <Card data-testid="alignment-card">
      <CardHeader>
        <CardTitle>Alignment</CardTitle>
        <CardDescription className="[overflow-wrap:anywhere]">
          Gmail, Yahoo and Outlook accept bulk mail from {report.fromDomain} only when DMARC passes: its DKIM signature
          or its return path (SPF) must be at {report.fromDomain}, or under it where the DMARC record allows.{" "}
          {carrierNote}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <p className="text-sm font-medium" data-testid="dmarc-verdict">
          {report.dmarcPasses
            ? `DMARC passes on ${report.passesOn.join(" and ")}.`
            : "DMARC does not pass yet: see below."}
        </p>
        <ul className="grid gap-4">
          <AlignmentRow name="DMARC policy" check={report.policy} testId="alignment-policy" />
          <AlignmentRow name={`DKIM alignment (${report.dkim.mode})`} check={report.dkim} testId="alignment-dkim" />
          <AlignmentRow
            name={`SPF alignment of the return path (${report.spf.mode})`}
            check={report.spf}
            testId="alignment-spf"
          />
        </ul>
        <p className="text-sm [overflow-wrap:anywhere] text-muted-foreground">
          Each campaign mail carries <code className="font-mono text-xs">Feedback-ID: {feedbackId}</code>
          {carrierSigns ? ", signed as the carrier signs its headers," : ", covered by the DKIM signature,"} so that
          Gmail&apos;s feedback loop reports complaints per campaign, brand and workspace.
        </p>
      </CardContent>
    </Card>
  );
}

import type { HarmCounts } from "@/lib/db/schema/deliverability";
import type { GuardrailThresholds } from "@/lib/deliverability/guardrail-schemas";
import { percentText, type Judgement } from "@/lib/deliverability/judge-health";

export interface ScopeFigures {
  judged: HarmCounts;
  judgement: Judgement;
}

/**
 * A campaign's and its brand's rates beside the thresholds they are judged against: what the
 * guardrail saw, for the banner and the resume confirmation. Stacked lines, so a phone shows them whole.
 */
export function HealthFigures({
  campaign,
  brand,
  thresholds,
  sinceResume,
}: {
  campaign: ScopeFigures;
  brand: ScopeFigures;
  thresholds: GuardrailThresholds;
  /** The figures count only the mail since a person resumed the campaign. */
  sinceResume: boolean;
}) {
  const rows: [string, ScopeFigures][] = [
    [sinceResume ? "This campaign, since it was resumed" : "This campaign", campaign],
    [sinceResume ? "Its brand, last 24 hours, since the resume" : "Its brand, last 24 hours", brand],
  ];
  return (
    <div className="grid gap-3 text-sm">
      <dl className="grid gap-2">
        {rows.map(([label, figures]) => (
          <div key={label} className="grid gap-0.5">
            <dt className="font-medium">{label}</dt>
            <dd className="text-muted-foreground">{line(figures, thresholds)}</dd>
          </div>
        ))}
      </dl>
      <p className="text-muted-foreground">
        Complaints warn at {percentText(thresholds.complaintWarnPercent)} and stop at{" "}
        {percentText(thresholds.complaintStopPercent)}; permanent bounces warn at{" "}
        {percentText(thresholds.hardBounceWarnPercent)} and stop at {percentText(thresholds.hardBounceStopPercent)}, of
        delivered mail, from {thresholds.minimumDelivered.toLocaleString("en")} delivered.
      </p>
    </div>
  );
}

function line({ judged, judgement }: ScopeFigures, thresholds: GuardrailThresholds): string {
  const delivered = `${judged.delivered.toLocaleString("en")} delivered`;
  if (judgement.complaintRate === null || judgement.hardBounceRate === null)
    return `${delivered}: too few to judge (from ${thresholds.minimumDelivered.toLocaleString("en")}).`;
  return `${delivered} · ${judged.complained.toLocaleString("en")} complaints (${percentText(judgement.complaintRate)}) · ${judged.hardBounced.toLocaleString("en")} permanent bounces (${percentText(judgement.hardBounceRate)})`;
}

import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import type { ActionState } from "@/lib/dashboard/action-state";
import type { GuardrailThresholds } from "@/lib/deliverability/guardrail-schemas";
import { WARM_UP_SCHEDULE } from "@/lib/domains/warm-up-schedule";
import type { DomainWarmUp } from "@/lib/domains/warm-up-settings";

import { WarmUpToggle } from "./warm-up-toggle";

const count = (n: number) => n.toLocaleString("en");
const capWords = (cap: number | null) => (cap === null ? "no cap" : `${count(cap)} a day`);
const percentOf = (percent: number) => `${percent.toLocaleString("en", { maximumFractionDigits: 2 })} %`;

/** A domain's warm-up: on or off, its stage on the schedule, today's cap and what is used of it, and the next step. */
export function DomainWarmUpCard({
  workspaceId,
  domainId,
  hostname,
  warmUp,
  thresholds,
  action,
}: {
  workspaceId: string;
  domainId: string;
  hostname: string;
  warmUp: DomainWarmUp;
  /** The workspace's guardrail thresholds: a day advances the schedule unless it crossed a stop. */
  thresholds: GuardrailThresholds;
  action: (workspaceId: string, input: { domainId: string; enabled: boolean }) => Promise<ActionState<DomainWarmUp>>;
}) {
  const { enabled, cap, used, stage, done, nextCap } = warmUp;
  const percent = cap ? Math.min(100, Math.round((used / cap) * 100)) : 0;
  return (
    <Card data-testid="domain-warm-up">
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-4">
        <div className="grid min-w-0 flex-1 basis-72 gap-1.5">
          <CardTitle className="flex flex-wrap items-center gap-2">
            Warm-up
            <Badge variant={enabled ? (done ? "success" : "warning") : "secondary"}>
              {enabled ? (done ? "Done" : `Stage ${stage + 1} of ${WARM_UP_SCHEDULE.length}`) : "Off"}
            </Badge>
          </CardTitle>
          <CardDescription>
            Inboxes trust a new domain as it proves itself: its campaigns send a little more each day, up to a daily
            cap, and the rest of a campaign goes on the next day (days begin at 00:00 UTC).
          </CardDescription>
        </div>
        <WarmUpToggle workspaceId={workspaceId} domainId={domainId} enabled={enabled} action={action} />
      </CardHeader>
      <CardContent className="grid gap-4 text-sm">
        {!enabled && (
          <p className="text-muted-foreground">
            Off: campaigns from {hostname} send without a daily cap. Turn it on for a domain that has not sent mail in
            volume before; it goes on from the stage its sending days reached.
          </p>
        )}
        {enabled && done && (
          <p className="text-muted-foreground">Warmed: {hostname} went through every stage and sends without a cap.</p>
        )}
        {enabled && cap !== null && (
          <div className="grid gap-2">
            <p>
              Today: <strong className="font-medium">{count(used)}</strong> of {count(cap)} sent
              {used >= cap ? ". The cap is used: campaigns from this domain go on at 00:00 UTC." : "."}
            </p>
            <div
              role="progressbar"
              aria-label="Used of today's cap"
              aria-valuemin={0}
              aria-valuemax={cap}
              aria-valuenow={used}
              className="h-2 overflow-hidden rounded-full bg-muted"
            >
              <div className="h-full bg-primary transition-[width]" style={{ width: `${percent}%` }} />
            </div>
            <p className="text-muted-foreground">
              Next: {capWords(nextCap)}, after a day that sends and keeps complaints under{" "}
              {percentOf(thresholds.complaintStopPercent)} and hard bounces under{" "}
              {percentOf(thresholds.hardBounceStopPercent)} of the mail delivered (judged from{" "}
              {count(thresholds.minimumDelivered)} delivered). A day that breaks them stays at its stage.
            </p>
          </div>
        )}
        <ol className="flex flex-wrap gap-1.5" aria-label="The warm-up schedule">
          {WARM_UP_SCHEDULE.map((step, index) => (
            <li key={index}>
              <Badge
                variant={enabled && index === stage ? "default" : "outline"}
                aria-current={enabled && index === stage ? "step" : undefined}
              >
                {step === null ? "No cap" : count(step)}
              </Badge>
            </li>
          ))}
        </ol>
      </CardContent>
    </Card>
  );
}

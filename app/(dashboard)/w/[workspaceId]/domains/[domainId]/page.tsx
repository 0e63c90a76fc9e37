import { CircleCheck, Hourglass, TriangleAlert } from "lucide-react";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";

import { AlignmentCard } from "@/components/domains/alignment-card";
import { CopyableCode } from "@/components/domains/copyable-code";
import { DomainBrandsCard } from "@/components/domains/domain-brands-card";
import { CheckDomainButton } from "@/components/domains/domain-controls";
import { DOMAIN_STATE_LABELS, DomainStateBadge } from "@/components/domains/domain-state-badge";
import { DomainWarmUpCard } from "@/components/domains/domain-warm-up-card";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { When } from "@/components/ui/when";
import { findOrNull } from "@/lib/dashboard/find-or-null";
import { getWorkspaceSession } from "@/lib/dashboard/workspace-session";
import { getGuardrailThresholds } from "@/lib/deliverability/guardrail-thresholds";
import { judgeAlignment } from "@/lib/domains/dmarc-alignment";
import { spfInclude } from "@/lib/domains/domain-records";
import { canResync, domainStanding, type DomainStanding } from "@/lib/domains/domain-state";
import { listDomainBrands } from "@/lib/domains/list-domain-brands";
import { getSendingDomainOrThrow } from "@/lib/domains/sending-domains";
import { sendingIdentity, sendingIdentityNote } from "@/lib/domains/sending-identity";
import { showDomainWarmUp } from "@/lib/domains/warm-up-settings";
import { env } from "@/lib/env";
import { feedbackId } from "@/lib/mail/feedback-id";

import { checkDomainAction, setDomainWarmUpAction } from "../actions";

export const metadata: Metadata = { title: "Sending domain" };

const PURPOSE: Record<string, string> = {
  spf: "SPF: which servers may send for the domain",
  dkim: "DKIM: the key that signs your mail",
  dmarc: "DMARC: what receivers do with mail that fails the checks (p=none only reports; tighten it later)",
  return_path: "The carrier's bounce handling and SPF",
  ownership:
    "Ownership: shows the domain is yours. Once it is found the carrier is asked for the domain, and the records it signs with appear here",
};

/** The notice's look for what the domain's state asks of the sender. */
const NOTICE: Record<DomainStanding, { variant: "default" | "warning" | "destructive"; icon: ReactNode }> = {
  ready: { variant: "default", icon: <CircleCheck className="text-emerald-600" /> },
  waiting: { variant: "warning", icon: <Hourglass /> },
  needs_fix: { variant: "destructive", icon: <TriangleAlert /> },
};

const STATUS = {
  found: { label: "Found", variant: "success" as const },
  missing: { label: "Missing", variant: "secondary" as const },
  wrong: { label: "Wrong value", variant: "destructive" as const },
};

export default async function SendingDomainPage({
  params,
}: {
  params: Promise<{ workspaceId: string; domainId: string }>;
}) {
  const { workspaceId, domainId } = await params;
  const { ctx, actor } = await getWorkspaceSession(workspaceId);
  const domain = await findOrNull(getSendingDomainOrThrow(ctx, actor, domainId));
  if (!domain) notFound();
  const [brands, warmUp, { thresholds }] = await Promise.all([
    listDomainBrands(ctx, actor, domain),
    showDomainWarmUp(ctx, actor, domain.id),
    getGuardrailThresholds(ctx, actor),
  ]);
  const state = DOMAIN_STATE_LABELS[domain.state];
  // No SPF record to show: SPF_INCLUDE unset and APP_URL on a local address (Resend gives its own).
  const spfUnknown = env().MAIL_TRANSPORT !== "resend" && spfInclude() === null;
  const notice = NOTICE[domainStanding(domain.state)];
  const identity = sendingIdentity(domain);
  const alignment = judgeAlignment(domain.hostname, domain.dmarcLookup, identity);
  return (
    <>
      <PageHeader
        crumbs={[
          { label: "Overview", href: `/w/${workspaceId}` },
          { label: "Domains", href: `/w/${workspaceId}/domains` },
          { label: domain.hostname },
        ]}
        title={domain.hostname}
        description={
          <span className="inline-flex flex-wrap items-center gap-2">
            <DomainStateBadge state={domain.state} />
            <span>
              Last checked <When at={domain.lastCheckedAt} />
            </span>
          </span>
        }
        actions={
          <>
            {canResync(domain.state) && (
              <CheckDomainButton workspaceId={workspaceId} domainId={domain.id} resync action={checkDomainAction} />
            )}
            <CheckDomainButton
              workspaceId={workspaceId}
              domainId={domain.id}
              resync={false}
              action={checkDomainAction}
            />
          </>
        }
      />
      <div className="grid gap-6">
        {state && (
          <Alert variant={notice.variant}>
            {notice.icon}
            <AlertTitle>{state.label}</AlertTitle>
            <AlertDescription>
              {state.explain}
              {domain.carrierError && (
                <span className="mt-1 block font-medium">The carrier said: {domain.carrierError}</span>
              )}
            </AlertDescription>
          </Alert>
        )}
        {spfUnknown && (
          <Alert variant="warning" data-testid="spf-include-notice">
            <TriangleAlert />
            <AlertTitle>No SPF record yet: this installation does not know which servers send its mail</AlertTitle>
            <AlertDescription>
              <p>
                SPF_INCLUDE is not set, and APP_URL ({new URL(env().APP_URL).host}) is a local address, so there is no
                SPF include to name. Set SPF_INCLUDE to your SMTP relay&apos;s include, as its documentation gives it (
                <code>amazonses.com</code> for Amazon SES, <code>mailgun.org</code> for Mailgun,{" "}
                <code>sendgrid.net</code> for SendGrid), restart the app, then check again: the SPF record appears
                below.
              </p>
              <p>Until then DKIM and DMARC are checked without it; signed mail passes DMARC without SPF.</p>
            </AlertDescription>
          </Alert>
        )}
        <Card>
          <CardHeader>
            <CardTitle>DNS records to publish</CardTitle>
            <CardDescription>
              Add each record at your DNS host exactly as shown. Some hosts add the domain to the name themselves: then
              enter only the part before it.
            </CardDescription>
          </CardHeader>
          <CardContent>
            {/* Below md each record is a stacked block: four columns of a 2,048-bit key do not fit a phone. */}
            <Table className="max-md:block max-md:[&_tbody]:block">
              <TableHeader className="max-md:hidden">
                <TableRow>
                  <TableHead>Type</TableHead>
                  <TableHead>Name</TableHead>
                  <TableHead>Value</TableHead>
                  <TableHead>State</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {/* An SPF record saved before the include was found unknowable (include:_spf.127.0.0.1) is not shown; the next check drops it. */}
                {domain.records
                  .filter((record) => !(spfUnknown && record.kind === "spf"))
                  .map((record) => {
                    const status = STATUS[record.status];
                    return (
                      <TableRow
                        key={`${record.type}-${record.name}-${record.value}`}
                        data-testid={`record-${record.kind}`}
                        className="max-md:grid max-md:gap-2 max-md:py-2"
                      >
                        <TableCell className="align-top max-md:flex max-md:items-center max-md:justify-between">
                          <div className="font-mono text-sm">{record.type}</div>
                          {record.priority !== undefined && (
                            <div className="text-xs text-muted-foreground">priority {record.priority}</div>
                          )}
                        </TableCell>
                        <TableCell className="w-72 max-w-72 align-top whitespace-normal max-md:block max-md:w-auto max-md:max-w-none">
                          <div className="text-xs text-muted-foreground md:hidden">Name</div>
                          <CopyableCode value={record.name} label={`Copy the name of the ${record.kind} record`} />
                          <div className="text-xs text-muted-foreground">{PURPOSE[record.kind]}</div>
                        </TableCell>
                        <TableCell className="max-w-md align-top whitespace-normal max-md:block max-md:max-w-none">
                          <div className="text-xs text-muted-foreground md:hidden">Value</div>
                          <CopyableCode value={record.value} label={`Copy the value of the ${record.kind} record`} />
                          {record.status === "wrong" && record.found.length > 0 && (
                            <div className="mt-1 text-xs text-destructive">
                              Found instead: {record.found.join(" | ")}
                            </div>
                          )}
                        </TableCell>
                        <TableCell className="align-top max-md:block">
                          <Badge variant={status.variant}>{status.label}</Badge>
                        </TableCell>
                      </TableRow>
                    );
                  })}
              </TableBody>
            </Table>
          </CardContent>
        </Card>
        <AlignmentCard
          report={alignment}
          carrierNote={sendingIdentityNote(identity)}
          feedbackId={feedbackId({ stream: "campaign", brandId: "brand", workspaceId })}
          carrierSigns={identity.carrier === "resend"}
        />
        <DomainWarmUpCard
          workspaceId={workspaceId}
          domainId={domain.id}
          hostname={domain.hostname}
          warmUp={warmUp}
          thresholds={thresholds}
          action={setDomainWarmUpAction}
        />
        <DomainBrandsCard workspaceId={workspaceId} hostname={domain.hostname} brands={brands} />
      </div>
    </>
  );
}

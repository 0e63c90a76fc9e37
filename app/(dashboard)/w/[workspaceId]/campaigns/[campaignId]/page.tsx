import { BarChart3, Hourglass, MailWarning } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Suspense } from "react";

import { AbTestEditor } from "@/components/campaigns/ab-test-editor";
import { AbTestResults } from "@/components/campaigns/ab-test-results";
import { AudiencePreviewTable, whyNobody, type Nobody } from "@/components/campaigns/audience-preview";
import { CampaignControls } from "@/components/campaigns/campaign-controls";
import { CampaignProgressBar } from "@/components/campaigns/campaign-progress";
import { CampaignStatusBadge } from "@/components/campaigns/campaign-status-badge";
import { LocalTimeSlicesCard } from "@/components/campaigns/local-time-slices-card";
import { MailPreview } from "@/components/campaigns/mail-preview";
import { NotSentCard } from "@/components/campaigns/not-sent-card";
import { ProviderProgressCard } from "@/components/campaigns/provider-progress-card";
import { ResendNonOpenersDialog } from "@/components/campaigns/resend-non-openers-dialog";
import { SaveTemplateDialog } from "@/components/campaigns/save-template-dialog";
import { SendTestDialog } from "@/components/campaigns/send-test-dialog";
import { SpamScoreReport } from "@/components/campaigns/spam-score-report";
import { CampaignHealthAlert } from "@/components/deliverability/campaign-health-alert";
import { GuardrailResumeDialog } from "@/components/deliverability/guardrail-resume-dialog";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Await } from "@/components/ui/await";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { PageHeader } from "@/components/ui/page-header";
import { When } from "@/components/ui/when";
import { abTestFormValues } from "@/lib/campaigns/ab-test-schemas";
import { getAbTestView } from "@/lib/campaigns/ab-test-view";
import { campaignFormOptions } from "@/lib/campaigns/campaign-form-options";
import { canEdit } from "@/lib/campaigns/campaign-status";
import { getCampaignWithBrandOrThrow } from "@/lib/campaigns/campaign-with-brand";
import { getCampaignProgressOrThrow } from "@/lib/campaigns/get-campaign-progress";
import { listNotSent } from "@/lib/campaigns/list-not-sent";
import { getLocalTimeSlices } from "@/lib/campaigns/local-time-slices";
import { previewAudience } from "@/lib/campaigns/preview-audience";
import { previewCampaignMail } from "@/lib/campaigns/preview-campaign-mail";
import { getProviderProgressOrThrow } from "@/lib/campaigns/provider-progress";
import { canResendToNonOpeners, resendLinks } from "@/lib/campaigns/resend-to-non-openers";
import { testMailAddresses } from "@/lib/campaigns/send-test-mail";
import { campaignWarmUpWait } from "@/lib/campaigns/warm-up-wait";
import { dashboardFiles } from "@/lib/dashboard/dashboard-reads";
import { findOrNull } from "@/lib/dashboard/find-or-null";
import { getWorkspaceSession } from "@/lib/dashboard/workspace-session";
import type { CampaignStatus } from "@/lib/db/schema";
import { campaignHealthView, guardrailStanding } from "@/lib/deliverability/campaign-health-view";
import { getCampaignHealthOrThrow } from "@/lib/deliverability/show-campaign-health";
import { scoreOutgoingMessage } from "@/lib/deliverability/spam-score";
import { getWorkspaceTimeZone } from "@/lib/workspaces/workspace-time-zone";

import {
  cancelCampaignAction,
  duplicateCampaignAction,
  pauseCampaignAction,
  resendToNonOpenersAction,
  resumeCampaignAction,
  saveTemplateAction,
  scheduleCampaignAction,
  sendCampaignNowAction,
  sendTestMailAction,
  unscheduleCampaignAction,
} from "../actions";
import { pickAbWinnerAction, removeAbTestAction, saveAbTestAction } from "./ab-test/actions";

export const metadata: Metadata = { title: "Campaign" };

/** What the Sending card's figures are, once the campaign no longer sends; while it sends they update by themselves. */
const SENDING_CARD_LINES: Partial<Record<CampaignStatus, string>> = {
  paused: "Paused: nothing more goes out until you resume it.",
  sent: "Finished: where each recipient's mail went.",
  cancelled: "Cancelled: what went out before it stopped.",
};

export default async function CampaignPage({
  params,
  searchParams,
}: {
  params: Promise<{ workspaceId: string; campaignId: string }>;
  searchParams: Promise<{ as?: string; notSent?: string }>;
}) {
  const { workspaceId, campaignId } = await params;
  const { as, notSent: notSentPage } = await searchParams;
  const { ctx, actor } = await getWorkspaceSession(workspaceId);
  const shown = await findOrNull(getCampaignWithBrandOrThrow(ctx, actor, campaignId));
  if (!shown) notFound();
  const { campaign } = shown;
  const started = !canEdit(campaign.status);
  // Once sending has started the audience is fixed: the progress says who got it. Before, counting it
  // reads everyone subscribed to the topic, which takes seconds at a million: the page shows without it
  // and the count streams in (send and schedule wait for it, as their confirmation quotes it).
  const audiencePreview = started ? null : previewAudience(ctx, actor, campaignId);
  // Per provider: one pass over the campaign's sends, streamed in beside the progress.
  const providers = started ? getProviderProgressOrThrow(ctx, actor, campaignId) : null;
  // Sent at a local time: its slices (docs/readings.md, "Sending at a local time"), and the zone for those without one.
  const [localTime, workspaceTimeZone] = await Promise.all([
    getLocalTimeSlices(ctx, actor, campaignId),
    getWorkspaceTimeZone(ctx, actor),
  ]);
  const [options, progress, preview, testAddresses, notSent, warmUpWait, health, resends] = await Promise.all([
    campaignFormOptions(ctx, actor),
    getCampaignProgressOrThrow(ctx, actor, campaignId),
    previewCampaignMail(ctx, actor, campaignId, typeof as === "string" && as.trim() ? as : undefined),
    testMailAddresses(ctx, actor),
    started ? listNotSent(ctx, actor, campaignId, Number(notSentPage ?? 1)) : null,
    campaign.status === "sending" ? campaignWarmUpWait(ctx, actor, campaignId) : null,
    // The guardrail's judgement (docs/readings.md, "Guardrails: pausing on harm"): only once mail has gone out.
    started ? getCampaignHealthOrThrow(ctx, actor, campaignId).then(campaignHealthView) : null,
    resendLinks(ctx, actor, campaign),
  ]);
  const abTest = await getAbTestView(ctx, actor, campaign);
  // SpamAssassin takes a second or more: the preview shows at once and the score streams in.
  const spamScore = preview.asSent ? scoreOutgoingMessage(ctx.clock, preview.asSent) : null;
  const brand = options.brands.find((candidate) => candidate.id === campaign.brandId);
  const topic = options.topics.find((candidate) => candidate.id === campaign.topicId);
  const list = options.lists.find((candidate) => candidate.id === campaign.listId);
  const segment = options.segments.find((candidate) => candidate.id === campaign.segmentId);
  const controls = (audience: string | null, nobody: Nobody | null) => (
    <CampaignControls
      workspaceId={workspaceId}
      campaign={{ id: campaign.id, name: campaign.name, status: campaign.status }}
      audience={audience}
      nobody={nobody}
      workspaceTimeZone={workspaceTimeZone}
      actions={{
        sendNow: sendCampaignNowAction,
        schedule: scheduleCampaignAction,
        unschedule: unscheduleCampaignAction,
        pause: pauseCampaignAction,
        resume: resumeCampaignAction,
        cancel: cancelCampaignAction,
        duplicate: duplicateCampaignAction,
      }}
      resume={
        health && guardrailStanding(campaign.status, health) === "paused" ? (
          <GuardrailResumeDialog
            workspaceId={workspaceId}
            campaignId={campaign.id}
            health={health}
            action={resumeCampaignAction}
          />
        ) : undefined
      }
    />
  );
  const crumbs = [
    { label: "Overview", href: `/w/${workspaceId}` },
    { label: "Campaigns", href: `/w/${workspaceId}/campaigns` },
    { label: campaign.name },
  ];
  return (
    <>
      <PageHeader
        crumbs={crumbs}
        title={campaign.name}
        description={
          <span className="inline-flex flex-wrap items-center gap-2">
            <CampaignStatusBadge status={campaign.status} />
            {campaign.status === "scheduled" && !localTime && (
              <span>
                Goes out <When at={campaign.scheduledAt} />
              </span>
            )}
            {campaign.status === "scheduled" && localTime && (
              <span>
                Goes out at {localTime.time} in each recipient&apos;s time zone on {localTime.date}, from{" "}
                <When at={campaign.scheduledAt} />
              </span>
            )}
          </span>
        }
        actions={
          audiencePreview ? (
            <Suspense fallback={controls(null, null)}>
              <Await promise={audiencePreview}>
                {(counted) => controls(peopleInWords(counted.recipients), whyNobody(counted))}
              </Await>
            </Suspense>
          ) : (
            controls(
              `the confirmed subscribers of ${topic?.name ?? "its topic"}${list ? ` on the list ${list.name}` : ""}`,
              null,
            )
          )
        }
      />
      <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="grid content-start gap-6">
          {resends.resendOf && (
            <Alert data-testid="resend-of">
              <MailWarning />
              <AlertTitle>
                Resend of{" "}
                <Link
                  className="font-medium text-primary hover:underline"
                  href={`/w/${workspaceId}/campaigns/${resends.resendOf.id}`}
                >
                  {resends.resendOf.name}
                </Link>{" "}
                to those who did not open
              </AlertTitle>
              <AlertDescription>
                <p>
                  It goes to the people that campaign reached who have not opened or clicked it themselves by the time
                  this one goes out, less anyone who unsubscribed or was suppressed since.
                </p>
              </AlertDescription>
            </Alert>
          )}
          {warmUpWait && (
            <Alert variant="warning" data-testid="warm-up-wait">
              <Hourglass />
              <AlertTitle>Waiting for the next day of the domain&apos;s warm-up</AlertTitle>
              <AlertDescription>
                <p>
                  Sent {warmUpWait.used.toLocaleString("en")} of {warmUpWait.cap.toLocaleString("en")} today under the
                  warm-up cap of{" "}
                  <Link
                    className="font-medium text-primary hover:underline"
                    href={`/w/${workspaceId}/domains/${warmUpWait.domainId}`}
                  >
                    {warmUpWait.hostname}
                  </Link>
                  ; continues tomorrow at {warmUpWait.until.toISOString().slice(11, 16)} UTC by itself.
                </p>
              </AlertDescription>
            </Alert>
          )}
          {health && <CampaignHealthAlert health={health} status={campaign.status} />}
          {localTime && <LocalTimeSlicesCard slices={localTime} now={ctx.clock.now()} />}
          {started && (
            <Card>
              <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-4">
                <div className="grid gap-1.5">
                  <CardTitle>Sending</CardTitle>
                  <CardDescription>
                    {SENDING_CARD_LINES[campaign.status] ?? "Updates by itself while the campaign sends."}
                  </CardDescription>
                </div>
                <span className="flex flex-wrap justify-end gap-2">
                  {canResendToNonOpeners(campaign) && !resends.resend && (
                    <ResendNonOpenersDialog
                      workspaceId={workspaceId}
                      campaign={{ id: campaign.id, subject: campaign.subject }}
                      action={resendToNonOpenersAction}
                    />
                  )}
                  <Button asChild variant="outline" size="sm">
                    <Link href={`/w/${workspaceId}/campaigns/${campaign.id}/report`}>
                      <BarChart3 />
                      Report
                    </Link>
                  </Button>
                </span>
              </CardHeader>
              <CardContent className="grid gap-4">
                <CampaignProgressBar workspaceId={workspaceId} campaignId={campaign.id} initial={progress} />
                {resends.resend && (
                  <p className="text-sm" data-testid="resend-link">
                    Resent to those who did not open:{" "}
                    <Link
                      className="font-medium text-primary hover:underline"
                      href={`/w/${workspaceId}/campaigns/${resends.resend.id}`}
                    >
                      {resends.resend.name}
                    </Link>
                  </p>
                )}
              </CardContent>
            </Card>
          )}
          {started && abTest && (
            <AbTestResults
              workspaceId={workspaceId}
              campaignId={campaign.id}
              test={abTest}
              pick={abTest.pickable ? pickAbWinnerAction : undefined}
            />
          )}
          {!started && (
            <AbTestEditor
              workspaceId={workspaceId}
              campaignId={campaign.id}
              initial={abTest && abTestFormValues(abTest)}
              defaults={{ subject: campaign.subject, senderName: shown.brand.name, html: campaign.html }}
              save={saveAbTestAction}
              remove={removeAbTestAction}
            />
          )}
          {providers && (
            <Suspense
              fallback={
                <p role="status" className="text-sm text-muted-foreground">
                  Counting by mailbox provider…
                </p>
              }
            >
              <Await promise={providers}>{(rows) => <ProviderProgressCard providers={rows} />}</Await>
            </Suspense>
          )}
          {notSent && notSent.total > 0 && (
            <NotSentCard
              totals={progress.notSent}
              list={notSent}
              pageHref={(page) => `/w/${workspaceId}/campaigns/${campaign.id}?notSent=${page}`}
              csvHref={dashboardFiles.notSent(workspaceId, campaign.id)}
            />
          )}
          {audiencePreview && (
            <Card>
              <CardHeader>
                <CardTitle>Who gets it</CardTitle>
                <CardDescription>
                  Counted now, by the same rules sending applies; it can change until you send.
                </CardDescription>
              </CardHeader>
              <CardContent>
                <Suspense
                  fallback={
                    <p role="status" className="text-sm text-muted-foreground">
                      Counting who gets it…
                    </p>
                  }
                >
                  <Await promise={audiencePreview}>{(counted) => <AudiencePreviewTable preview={counted} />}</Await>
                </Suspense>
              </CardContent>
            </Card>
          )}
        </div>
        <div className="grid content-start gap-6">
          <Card>
            <CardHeader>
              <CardTitle>Details</CardTitle>
            </CardHeader>
            <CardContent>
              <dl className="grid gap-3 text-sm">
                {[
                  ["Subject", campaign.subject],
                  ["Brand", brand?.name ?? "—"],
                  ["Topic", topic?.name ?? "—"],
                  ["List", list?.name ?? "Everyone subscribed to the topic"],
                  [
                    "Segment",
                    segment ? `${campaign.segmentMode === "exclude" ? "Leaving out" : "Only"} ${segment.name}` : "None",
                  ],
                  ["Recipients", campaign.recipientCount?.toLocaleString("en") ?? "Counted when sending starts"],
                ].map(([label, value]) => (
                  <div key={label} className="grid gap-0.5">
                    <dt className="text-muted-foreground">{label}</dt>
                    <dd className="break-words">{value}</dd>
                  </div>
                ))}
                <div className="grid gap-0.5">
                  <dt className="text-muted-foreground">Created</dt>
                  <dd>
                    <When at={campaign.createdAt} />
                  </dd>
                </div>
                {campaign.sentAt && (
                  <div className="grid gap-0.5">
                    <dt className="text-muted-foreground">Sending started</dt>
                    <dd>
                      <When at={campaign.sentAt} />
                    </dd>
                  </div>
                )}
              </dl>
            </CardContent>
          </Card>
        </div>
      </div>
      <Card className="mt-6">
        <CardHeader>
          <CardTitle>Preview</CardTitle>
          <CardDescription className="[overflow-wrap:anywhere]">
            {preview.as.sample
              ? "With made-up values: the topic has no subscriber yet."
              : `As ${preview.as.email} receives it, with the footer every campaign mail carries.`}
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <div className="flex flex-wrap items-end justify-between gap-2">
            <form method="get" className="flex flex-wrap items-end gap-2" aria-label="Whose mail to preview">
              <div className="grid gap-1.5">
                <Label htmlFor="preview-as">Preview as</Label>
                <Input
                  id="preview-as"
                  name="as"
                  type="email"
                  list="preview-candidates"
                  defaultValue={preview.as.sample ? "" : preview.as.email}
                  placeholder="A contact's address"
                  className="w-72"
                />
                <datalist id="preview-candidates">
                  {preview.candidates.map((email) => (
                    <option key={email} value={email} />
                  ))}
                </datalist>
              </div>
              <Button type="submit" variant="secondary">
                Show
              </Button>
            </form>
            <span className="inline-flex gap-2">
              <SaveTemplateDialog
                workspaceId={workspaceId}
                campaign={{ id: campaign.id, name: campaign.name }}
                action={saveTemplateAction}
              />
              <SendTestDialog
                workspaceId={workspaceId}
                campaignId={campaign.id}
                addresses={testAddresses}
                action={sendTestMailAction}
              />
            </span>
          </div>
          {as && preview.as.email !== as.trim().toLowerCase() && (
            <p role="status" className="text-sm text-muted-foreground">
              No contact {as} in this workspace; showing {preview.as.email} instead.
            </p>
          )}
          {"missing" in preview.mail ? (
            <Alert variant="destructive">
              <AlertTitle>{preview.as.email} would not get this mail</AlertTitle>
              <AlertDescription>
                The mail uses <code>{`{{${preview.mail.missing}}}`}</code> and this contact has no value for it:
                dispatch skips them and reports why.
              </AlertDescription>
            </Alert>
          ) : (
            <>
              {spamScore && (
                <Suspense
                  fallback={
                    <p role="status" className="rounded-lg border p-4 text-sm text-muted-foreground">
                      Asking SpamAssassin for a spam score…
                    </p>
                  }
                >
                  <Await promise={spamScore}>{(score) => <SpamScoreReport score={score} />}</Await>
                </Suspense>
              )}
              <MailPreview html={preview.mail.html} subject={preview.mail.subject} />
            </>
          )}
        </CardContent>
      </Card>
    </>
  );
}

function peopleInWords(count: number): string {
  return `${count.toLocaleString("en")} ${count === 1 ? "person" : "people"}`;
}

import { CheckCircle2, Circle } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";

import { OverviewFigures } from "@/components/dashboard/overview-figures";
import { CampaignsAtRiskCard } from "@/components/deliverability/campaigns-at-risk-card";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { formatLadderDate } from "@/lib/billing/ladder-mail";
import { getWorkspaceSession } from "@/lib/dashboard/workspace-session";
import { campaignHealthView } from "@/lib/deliverability/campaign-health-view";
import { listCampaignsAtRisk } from "@/lib/deliverability/show-campaign-health";
import { findOperator } from "@/lib/operator/operator-session";
import { getSetupChecklist, type ChecklistStep } from "@/lib/workspaces/get-setup-checklist";
import { getWorkspaceOverviewOrThrow } from "@/lib/workspaces/get-workspace-overview";
import { workspaceClearance } from "@/lib/workspaces/sending-clearance";

export const metadata: Metadata = { title: "Overview" };

const STEPS: { step: ChecklistStep; title: string; detail: string; path?: string }[] = [
  {
    step: "brand",
    title: "Add a brand",
    detail: "Who your mail is from: name, legal name, postal address and sender address.",
    path: "/brands",
  },
  {
    step: "domain",
    title: "Verify a sending domain",
    detail: "Publish the DNS records that let mailbox providers trust your mail.",
    path: "/domains",
  },
  {
    step: "review",
    title: "Pass the review",
    detail:
      "The service's operator reviews your workspace and your brand; until they approve both, you mail only your verified addresses.",
  },
  {
    step: "topic",
    title: "Create a topic",
    detail: "What people consent to receive; signups and campaigns go to a topic.",
    path: "/topics",
  },
  {
    step: "key",
    title: "Create an API key",
    detail: "A publishable key for your signup form, a secret key for your servers.",
    path: "/api-keys",
  },
  {
    step: "campaign",
    title: "Send a first campaign",
    detail: "One mail to the subscribers of one topic.",
    path: "/campaigns",
  },
];

export default async function WorkspaceOverviewPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  const { ctx, actor, workspace } = await getWorkspaceSession(workspaceId);
  const [{ counts, billing }, checklist, clearance, operator, atRisk] = await Promise.all([
    getWorkspaceOverviewOrThrow(ctx, actor),
    getSetupChecklist(ctx, actor),
    workspaceClearance(ctx, actor),
    findOperator(),
    listCampaignsAtRisk(ctx, actor),
  ]);
  // The review step: an operator (a self-hosted install's first owner) passes it on the Reviews page.
  const steps = STEPS.map((entry) =>
    entry.step === "review" && operator
      ? {
          ...entry,
          path: "/operator",
          detail: "You are this installation's operator: approve this workspace and its brand on the Reviews page.",
        }
      : entry,
  );
  const mailsAnyone = clearance.some((brand) => brand.open);
  const done = STEPS.filter(({ step }) => checklist[step]).length;
  return (
    <>
      <PageHeader
        title={workspace.name}
        description={
          <span className="inline-flex flex-wrap items-center gap-2">
            {mailsAnyone ? (
              <Badge variant="success">Sending to anyone</Badge>
            ) : (
              <Link href={`/w/${workspaceId}/verified-addresses`}>
                <Badge variant="warning">Sandbox: campaigns reach only your verified addresses</Badge>
              </Link>
            )}
            {billing && (
              <Link href={`/w/${workspaceId}/billing`}>
                <Badge variant="outline">
                  Billing: {billing.stage === "trial" ? "trial" : billing.stage.replaceAll("_", " ")}
                </Badge>
              </Link>
            )}
          </span>
        }
      />
      <CampaignsAtRiskCard
        className="mb-6"
        workspaceId={workspaceId}
        campaigns={atRisk.map(({ campaign, health }) => ({ campaign, health: campaignHealthView(health) }))}
      />
      <div className="grid gap-6 lg:grid-cols-[1fr_20rem]">
        <Card>
          <CardHeader>
            <CardTitle>Get ready to send</CardTitle>
            <CardDescription>
              {done} of {STEPS.length} done
            </CardDescription>
          </CardHeader>
          <CardContent>
            <ol className="grid gap-3" aria-label="Setup checklist">
              {steps.map(({ step, title, detail, path }) => (
                <li key={step} className="flex gap-3">
                  {checklist[step] ? (
                    <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-emerald-600" aria-label="Done" />
                  ) : (
                    <Circle className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-label="To do" />
                  )}
                  <div className="grid gap-0.5">
                    <span className="font-medium">
                      {path && !checklist[step] ? (
                        <Link
                          className="text-primary hover:underline"
                          href={path.startsWith("/operator") ? path : `/w/${workspaceId}${path}`}
                        >
                          {title}
                        </Link>
                      ) : (
                        title
                      )}
                    </span>
                    <span className="text-sm text-muted-foreground">{detail}</span>
                  </div>
                </li>
              ))}
            </ol>
          </CardContent>
        </Card>
        <div className="grid content-start gap-3">
          <OverviewFigures workspaceId={workspaceId} initial={counts} />
          {billing && (
            <p className="text-sm text-muted-foreground">
              Sends used this period: {billing.sendsUsed.toLocaleString("en")} of{" "}
              {billing.sendAllowance.toLocaleString("en")}
              {billing.stage === "trial" && billing.trialEndsAt && (
                <> · trial ends {formatLadderDate(billing.trialEndsAt)}</>
              )}
            </p>
          )}
        </div>
      </div>
    </>
  );
}

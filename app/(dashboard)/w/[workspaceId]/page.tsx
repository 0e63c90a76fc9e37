import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireUser } from "@/lib/auth/current-user";
import { defaultCtx } from "@/lib/context";
import { getWorkspaceOverview } from "@/lib/workspaces/get-workspace-overview";
import { requireMembership } from "@/lib/workspaces/require-membership";

export const metadata: Metadata = { title: "Overview" };

export default async function WorkspaceOverviewPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  const user = await requireUser();
  const ctx = defaultCtx();
  await requireMembership(ctx, user.id, workspaceId, notFound);
  const { workspace, counts, billing } = await getWorkspaceOverview(ctx, workspaceId);
  const stats: [string, number][] = [
    ["Contacts", counts.contacts],
    ["Topics", counts.topics],
    ["Lists", counts.lists],
    ["Brands", counts.brands],
    ["Active API keys", counts.activeKeys],
  ];
  return (
    <>
      <h1>{workspace.name}</h1>
      <p>
        <span className="badge">{workspace.approved ? "Approved" : "In review: sends only to your verified addresses"}</span>{" "}
        {billing && <span className="badge">Plan: {billing.stage.replace("_", " ")}</span>}
      </p>
      <h2>Overview</h2>
      <dl className="stats">
        {stats.map(([label, value]) => (
          <div className="stat" key={label}>
            <dt>{label}</dt>
            <dd>{value.toLocaleString("en")}</dd>
          </div>
        ))}
      </dl>
      {billing && (
        <p className="muted">
          Sends used this period: {billing.sendsUsed.toLocaleString("en")} of {billing.sendAllowance.toLocaleString("en")}
          {billing.trialEndsAt && <> · trial ends {billing.trialEndsAt.toISOString().slice(0, 10)}</>}
        </p>
      )}
    </>
  );
}

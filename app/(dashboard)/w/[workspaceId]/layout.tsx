import Link from "next/link";
import type { ReactNode } from "react";
import { BillingBanner } from "@/components/billing/billing-banner";
import { Sidebar } from "@/components/dashboard/sidebar";
import { UserMenu } from "@/components/dashboard/user-menu";
import { getBillingStanding } from "@/lib/billing/get-billing";
import { getWorkspaceSession } from "@/lib/dashboard/workspace-session";
import { mailboxEnabled } from "@/lib/mail/mailbox-enabled";
import { findOperator } from "@/lib/operator/operator-session";

// Membership is checked here for every page of the workspace (another workspace's id is a 404);
// each server action checks it again, since a layout does not guard actions.
export default async function WorkspaceLayout({ children, params }: { children: ReactNode; params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  const { user, workspace, workspaces, ctx } = await getWorkspaceSession(workspaceId);
  const [operator, billing] = await Promise.all([findOperator(), getBillingStanding(ctx, workspaceId)]);
  return (
    <div className="grid min-h-screen md:grid-cols-[15rem_minmax(0,1fr)]">
      {/* The column carries the background and border down the whole page; the sidebar inside stays in view. */}
      <div className="border-r bg-sidebar">
        <aside className="flex flex-col gap-3 p-3 md:sticky md:top-0 md:h-screen md:overflow-y-auto">
          {/* The operator's way to the service's reviews shares the name's line: below the screens it made the sidebar taller than a laptop's screen. */}
          <div className="flex items-baseline justify-between gap-2 px-2 pt-1">
            <Link href="/" className="text-base font-semibold tracking-tight">
              Mailservice
            </Link>
            {operator && (
              <Link href="/operator" className="text-xs text-primary hover:underline" title="Reviews, billing and workflow runs of the service">
                Operator
              </Link>
            )}
          </div>
          <Sidebar workspace={workspace} workspaces={workspaces} mailbox={mailboxEnabled()} />
          <div className="mt-auto">
            <UserMenu email={user.email} />
          </div>
        </aside>
      </div>
      <main className="min-w-0 px-6 py-6 md:px-10">
        {billing && <BillingBanner billing={billing} now={ctx.clock.now()} />}
        {children}
      </main>
    </div>
  );
}

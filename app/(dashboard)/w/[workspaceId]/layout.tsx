import Link from "next/link";
import type { ReactNode } from "react";

import { BillingBanner } from "@/components/billing/billing-banner";
import { MobileNav } from "@/components/dashboard/mobile-nav";
import { Sidebar } from "@/components/dashboard/sidebar";
import { UserMenu } from "@/components/dashboard/user-menu";
import { getBillingStanding } from "@/lib/billing/get-billing";
import { getWorkspaceSession } from "@/lib/dashboard/workspace-session";
import { mailboxEnabled } from "@/lib/mail/mailbox-enabled";
import { findOperator } from "@/lib/operator/operator-session";

// Membership is checked here for every page of the workspace (another workspace's id is a 404);
// each server action checks it again, since a layout does not guard actions.
export default async function WorkspaceLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ workspaceId: string }>;
}) {
  const { workspaceId } = await params;
  const { user, workspace, workspaces, ctx, actor } = await getWorkspaceSession(workspaceId);
  const [operator, billing] = await Promise.all([findOperator(), getBillingStanding(ctx, actor)]);
  const navigation = (
    <>
      {/* The operator's way to the service's reviews shares the name's line: below the screens it made the sidebar taller than a laptop's screen. */}
      <div className="flex items-baseline justify-between gap-2 px-2 pt-1">
        <Link href="/" className="text-base font-semibold tracking-tight">
          Mailservice
        </Link>
        {operator && (
          <Link
            href="/operator"
            className="text-xs text-primary hover:underline"
            title="Reviews, billing and workflow runs of the service"
          >
            Operator
          </Link>
        )}
      </div>
      <Sidebar workspace={workspace} workspaces={workspaces} mailbox={mailboxEnabled()} />
      <div className="mt-auto">
        <UserMenu email={user.email} />
      </div>
    </>
  );
  return (
    <div className="grid min-h-screen grid-rows-[auto_1fr] md:grid-cols-[15rem_minmax(0,1fr)] md:grid-rows-none">
      {/* Phones: a menu button opens the same navigation as a drawer, so the screen's content comes first. */}
      <MobileNav title={workspace.name}>{navigation}</MobileNav>
      {/* The column carries the background and border down the whole page; the sidebar inside stays in view. */}
      <div className="hidden border-r bg-sidebar md:block">
        <aside className="sticky top-0 flex h-screen flex-col gap-3 overflow-y-auto p-3">{navigation}</aside>
      </div>
      <main className="min-w-0 px-4 py-6 sm:px-6 md:px-10">
        {billing && <BillingBanner billing={billing} now={ctx.clock.now()} />}
        {children}
      </main>
    </div>
  );
}

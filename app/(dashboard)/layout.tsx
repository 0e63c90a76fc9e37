import type { ReactNode } from "react";
import { SignOutButton } from "@/components/sign-out-button";
import { WorkspaceNav } from "@/components/workspace-nav";
import { requireUser } from "@/lib/auth/current-user";
import { defaultCtx } from "@/lib/context";
import { mailboxEnabled } from "@/lib/mail/mailbox-enabled";
import { listUserWorkspaces } from "@/lib/workspaces/list-user-workspaces";

// Every page under this layout needs a signed-in user; signed-out visitors are sent to sign-in.
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const user = await requireUser();
  const workspaces = await listUserWorkspaces(defaultCtx(), user.id);
  return (
    <div className="shell">
      <aside className="sidebar">
        <div className="brand">Mailservice</div>
        <WorkspaceNav workspaces={workspaces} mailbox={mailboxEnabled()} />
        <div style={{ marginTop: "auto" }}>
          <p className="muted" data-testid="signed-in-as">{user.email}</p>
          <SignOutButton />
        </div>
      </aside>
      <main className="main">{children}</main>
    </div>
  );
}

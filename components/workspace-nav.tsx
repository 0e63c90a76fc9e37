"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

interface WorkspaceLink {
  id: string;
  name: string;
}

// The screens a workspace has besides its overview (the workspace's own link).
const MAILBOX = { path: "/mailbox", label: "Test mailbox" };
const SCREENS = [{ path: "/webhooks", label: "Webhooks" }];

/** The user's workspaces; the open one lists its screens. `mailbox`: the server's mailboxEnabled(). */
export function WorkspaceNav({ workspaces, mailbox }: { workspaces: WorkspaceLink[]; mailbox: boolean }) {
  const pathname = usePathname();
  const screens = mailbox ? [MAILBOX, ...SCREENS] : SCREENS;
  return (
    <nav aria-label="Workspaces">
      <p className="heading">Workspaces</p>
      {workspaces.length === 0 && <p className="muted">You are not a member of any workspace yet.</p>}
      <ul>
        {workspaces.map((workspace) => {
          const base = `/w/${workspace.id}`;
          const open = pathname === base || pathname.startsWith(`${base}/`);
          return (
            <li key={workspace.id}>
              <Link href={base} aria-current={pathname === base ? "page" : undefined}>
                {workspace.name}
              </Link>
              {open && (
                <ul>
                  {screens.map((screen) => (
                    <li key={screen.path}>
                      <Link href={`${base}${screen.path}`} aria-current={pathname === `${base}${screen.path}` ? "page" : undefined}>
                        {screen.label}
                      </Link>
                    </li>
                  ))}
                </ul>
              )}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

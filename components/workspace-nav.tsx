"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

interface WorkspaceLink {
  id: string;
  name: string;
}

/** The user's workspaces, each with the screens that exist for it. */
export function WorkspaceNav({ workspaces }: { workspaces: WorkspaceLink[] }) {
  const pathname = usePathname();
  return (
    <nav aria-label="Workspaces">
      <p className="heading">Workspaces</p>
      {workspaces.length === 0 && <p className="muted">You are not a member of any workspace yet.</p>}
      <ul>
        {workspaces.map((workspace) => {
          const href = `/w/${workspace.id}`;
          return (
            <li key={workspace.id}>
              <Link href={href} aria-current={pathname === href ? "page" : undefined}>
                {workspace.name}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

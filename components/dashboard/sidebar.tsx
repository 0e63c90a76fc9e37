"use client";

import { Check, ChevronsUpDown } from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";

import { cn } from "@/components/ui/cn";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";

import { IntentLink } from "./intent-link";
import { NAV_GROUPS } from "./nav-config";

interface WorkspaceLink {
  id: string;
  name: string;
}

/** The workspace switcher and every screen of the open workspace. */
export function Sidebar({
  workspace,
  workspaces,
  mailbox,
}: {
  workspace: WorkspaceLink;
  workspaces: WorkspaceLink[];
  mailbox: boolean;
}) {
  const pathname = usePathname();
  const base = `/w/${workspace.id}`;
  return (
    <div className="flex flex-col gap-3">
      <DropdownMenu>
        <DropdownMenuTrigger
          className="flex w-full items-center justify-between gap-2 rounded-md border bg-background px-3 py-2 text-left text-sm font-medium shadow-xs hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
          aria-label={`Workspace: ${workspace.name}. Switch workspace`}
        >
          <span className="truncate">{workspace.name}</span>
          <ChevronsUpDown className="size-4 shrink-0 text-muted-foreground" aria-hidden />
        </DropdownMenuTrigger>
        <DropdownMenuContent align="start" className="w-56">
          <DropdownMenuLabel>Workspaces</DropdownMenuLabel>
          {workspaces.map((candidate) => (
            <DropdownMenuItem key={candidate.id} asChild>
              <Link href={`/w/${candidate.id}`}>
                <span className="flex-1 truncate">{candidate.name}</span>
                {candidate.id === workspace.id && <Check aria-label="current" />}
              </Link>
            </DropdownMenuItem>
          ))}
        </DropdownMenuContent>
      </DropdownMenu>
      <nav aria-label="Workspace" className="flex flex-col gap-2">
        {NAV_GROUPS.map((group) => {
          const screens = group.screens.filter((screen) => screen.requires !== "mailbox" || mailbox);
          if (screens.length === 0) return null;
          return (
            <div key={group.label || "main"} className="flex flex-col gap-0.5">
              {group.label && <p className="px-2 pb-1 text-xs font-medium text-muted-foreground">{group.label}</p>}
              {screens.map((screen) => {
                const href = `${base}${screen.path}`;
                const current =
                  screen.path === "" ? pathname === base : pathname === href || pathname.startsWith(`${href}/`);
                const Icon = screen.icon;
                return (
                  <IntentLink
                    key={screen.path}
                    href={href}
                    aria-current={current ? "page" : undefined}
                    className={cn(
                      "flex items-center gap-2 rounded-md px-2 py-0.5 text-sm text-sidebar-foreground/80 hover:bg-sidebar-accent hover:text-sidebar-foreground",
                      current && "bg-sidebar-accent font-medium text-sidebar-foreground",
                    )}
                  >
                    <Icon className="size-4 shrink-0" aria-hidden />
                    {screen.label}
                  </IntentLink>
                );
              })}
            </div>
          );
        })}
      </nav>
    </div>
  );
}

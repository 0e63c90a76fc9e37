import "server-only";

import { asc, eq } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { memberships, workspaces } from "@/lib/db/schema";

export interface UserWorkspace {
  id: string;
  name: string;
  role: "owner" | "admin" | "member";
  approved: boolean;
}

export async function listUserWorkspaces(ctx: Ctx, userId: string): Promise<UserWorkspace[]> {
  const rows = await ctx.db
    .select({ id: workspaces.id, name: workspaces.name, role: memberships.role, approvedAt: workspaces.approvedAt })
    .from(memberships)
    .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(workspaces.id));
  return rows.map(({ approvedAt, ...row }) => ({ ...row, approved: approvedAt !== null }));
}

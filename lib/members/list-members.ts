import "server-only";

import { asc, eq } from "drizzle-orm";

import type { WorkspaceActor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { memberships, users } from "@/lib/db/schema";

export interface MemberView {
  userId: string;
  email: string;
  role: "owner" | "admin" | "member";
  /** False until they accept their invitation from its link (setting a password when they had none). */
  active: boolean;
  joinedAt: Date;
}

export async function listMembers(ctx: Ctx, actor: WorkspaceActor): Promise<MemberView[]> {
  const rows = await ctx.db
    .select({
      userId: users.id,
      email: users.email,
      role: memberships.role,
      passwordHash: users.passwordHash,
      acceptedAt: memberships.acceptedAt,
      joinedAt: memberships.createdAt,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.workspaceId, actor.workspaceId))
    .orderBy(asc(memberships.createdAt), asc(users.email));
  return rows.map(({ passwordHash, acceptedAt, ...row }) => ({
    ...row,
    active: passwordHash !== null && acceptedAt !== null,
  }));
}

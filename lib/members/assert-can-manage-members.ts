import "server-only";

import { and, eq } from "drizzle-orm";

import type { WorkspaceActor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { memberships } from "@/lib/db/schema";
import { ApiError } from "@/lib/errors";

/** Owners and admins invite and remove members; the operator (system actor) may too. Answers the role that allowed it. */
export async function assertCanManageMembers(ctx: Ctx, actor: WorkspaceActor): Promise<"owner" | "admin" | "operator"> {
  if (actor.kind === "system") return "operator";
  if (actor.kind !== "user")
    throw new ApiError({
      type: "permission_error",
      code: "not_allowed",
      message: "Members are managed in the dashboard.",
    });
  const [row] = await ctx.db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.workspaceId, actor.workspaceId), eq(memberships.userId, actor.userId)));
  if (row?.role !== "owner" && row?.role !== "admin") {
    throw new ApiError({
      type: "permission_error",
      code: "not_allowed",
      message: "Only the workspace's owners and admins can invite or remove members.",
    });
  }
  return row.role;
}

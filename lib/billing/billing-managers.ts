import "server-only";

import { and, eq } from "drizzle-orm";

import type { WorkspaceActor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { memberships, type MEMBERSHIP_ROLES } from "@/lib/db/schema";
import { ApiError } from "@/lib/errors";

/** Owners and admins choose, pay for and cancel the plan; a member sees the billing page only. */
export function managesBilling(role: (typeof MEMBERSHIP_ROLES)[number]): boolean {
  return role === "owner" || role === "admin";
}

/**
 * A person manages billing as an owner or admin; the system (the operator, the admin CLI, the payment
 * provider's webhook) always may; an API key never, since billing is not part of the API.
 */
export async function assertManagesBilling(ctx: Ctx, actor: WorkspaceActor): Promise<void> {
  if (actor.kind === "system") return;
  if (actor.kind !== "user")
    throw new ApiError({
      type: "permission_error",
      code: "not_allowed",
      message: "Billing is managed in the dashboard.",
    });
  const [row] = await ctx.db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.workspaceId, actor.workspaceId), eq(memberships.userId, actor.userId)));
  if (!row || !managesBilling(row.role))
    throw new ApiError({
      type: "permission_error",
      code: "not_allowed",
      message: "Only the workspace's owners and admins manage billing.",
    });
}

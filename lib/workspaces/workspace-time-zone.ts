import "server-only";

import { eq } from "drizzle-orm";

import { requireActorWorkspace, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { workspaces } from "@/lib/db/schema";
import { parseInput } from "@/lib/validation/parse-input";

import { workspaceTimeZoneSchema, type WorkspaceTimeZoneInput } from "./workspace-time-zone-schema";

/** The actor's workspace's time zone (docs/readings.md, "Sending at a local time"); UTC until a member sets one. */
export async function getWorkspaceTimeZone(ctx: Ctx, actor: Actor): Promise<string> {
  const [row] = await ctx.db
    .select({ timeZone: workspaces.timeZone })
    .from(workspaces)
    .where(eq(workspaces.id, requireActorWorkspace(actor)));
  return row?.timeZone ?? "UTC";
}

/**
 * Sets the zone used for contacts without one of their own. A campaign already scheduled at a local
 * time reads it when its audience is taken, at its first slice.
 */
export async function updateWorkspaceTimeZone(ctx: Ctx, actor: Actor, input: WorkspaceTimeZoneInput) {
  const { timeZone } = parseInput(workspaceTimeZoneSchema, input);
  await ctx.db
    .update(workspaces)
    .set({ timeZone })
    .where(eq(workspaces.id, requireActorWorkspace(actor)));
  return { timeZone };
}

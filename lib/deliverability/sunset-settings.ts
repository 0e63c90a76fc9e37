import "server-only";

import { eq } from "drizzle-orm";

import { requireActorWorkspace, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { workspaces } from "@/lib/db/schema";
import { parseInput } from "@/lib/validation/parse-input";

import { sunsetSettingsSchema, type SunsetSettings, type SunsetSettingsInput } from "./sunset-schemas";

/** The actor's workspace's sunset of inactive contacts. */
export async function getSunsetSettings(ctx: Ctx, actor: Actor): Promise<SunsetSettings> {
  return sunsetSettingsOf(ctx, requireActorWorkspace(actor));
}

/** Internal: the sunset of the workspace a verb took from its actor (or from the campaign it dispatches). */
export async function sunsetSettingsOf(ctx: Ctx, workspaceId: string): Promise<SunsetSettings> {
  const [row] = await ctx.db
    .select({
      enabled: workspaces.sunsetEnabled,
      afterCampaigns: workspaces.sunsetAfterCampaigns,
      afterDays: workspaces.sunsetAfterDays,
    })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId));
  return row ?? { enabled: false, afterCampaigns: null, afterDays: null };
}

/**
 * Turns the sunset on or off, or changes its measures. It changes who campaigns dispatched from now
 * on leave out, and nothing else: no subscription, opt-out or suppression is touched.
 */
export async function updateSunsetSettings(
  ctx: Ctx,
  actor: Actor,
  input: SunsetSettingsInput,
): Promise<SunsetSettings> {
  const settings = parseInput(sunsetSettingsSchema, input);
  await ctx.db
    .update(workspaces)
    .set({
      sunsetEnabled: settings.enabled,
      sunsetAfterCampaigns: settings.afterCampaigns,
      sunsetAfterDays: settings.afterDays,
    })
    .where(eq(workspaces.id, requireActorWorkspace(actor)));
  return settings;
}

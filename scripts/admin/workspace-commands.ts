import { systemActor } from "@/lib/actor";
import type { Currency } from "@/lib/billing/plans";
import { getSunsetSettings, updateSunsetSettings } from "@/lib/deliverability/sunset-settings";
import { approveWorkspace } from "@/lib/workspaces/approve-workspace";
import { createWorkspace } from "@/lib/workspaces/create-workspace";
import { getWorkspaceTimeZone, updateWorkspaceTimeZone } from "@/lib/workspaces/workspace-time-zone";

import { opt, str, string, type AdminCommand } from "./admin-command";

/** Workspaces: creating one with its owner, approving it (the review before it may send), its sunset of inactive contacts and its time zone. */
export const workspaceCommands: Record<string, AdminCommand> = {
  "workspace:create": {
    summary: "--name N --owner EMAIL [--currency usd|eur|gbp]   (the billing currency cannot change later)",
    options: { name: string, owner: string, currency: string },
    required: ["name", "owner"],
    run: async (ctx, v) => {
      const { workspaceId } = await createWorkspace(ctx, {
        name: str(v, "name"),
        ownerEmail: str(v, "owner"),
        currency: opt(v, "currency") as Currency | undefined,
      });
      return { workspace_id: workspaceId };
    },
  },
  "workspace:approve": {
    summary: "--workspace ID",
    options: { workspace: string },
    required: ["workspace"],
    run: async (ctx, v) => {
      const { workspaceId, approvedAt } = await approveWorkspace(ctx, str(v, "workspace"));
      return { workspace_id: workspaceId, approved_at: approvedAt.toISOString() };
    },
  },
  "workspace:sunset": {
    summary:
      "--workspace ID [--on --after-campaigns N --after-days M | --off]   (without --on or --off: shows it; see docs/readings.md)",
    options: {
      workspace: string,
      on: { type: "boolean" },
      off: { type: "boolean" },
      "after-campaigns": string,
      "after-days": string,
    },
    required: ["workspace"],
    run: async (ctx, v) => {
      const actor = systemActor("admin:workspace:sunset", str(v, "workspace"));
      const current = await getSunsetSettings(ctx, actor);
      const settings =
        v.on || v.off
          ? await updateSunsetSettings(ctx, actor, {
              enabled: Boolean(v.on),
              afterCampaigns: opt(v, "after-campaigns") ?? current.afterCampaigns,
              afterDays: opt(v, "after-days") ?? current.afterDays,
            })
          : current;
      return {
        workspace_id: str(v, "workspace"),
        enabled: settings.enabled,
        after_campaigns: settings.afterCampaigns,
        after_days: settings.afterDays,
      };
    },
  },
  "workspace:time-zone": {
    summary:
      "--workspace ID [--set ZONE]   (the zone a campaign sent at a local time uses for contacts without one; without --set: shows it)",
    options: { workspace: string, set: string },
    required: ["workspace"],
    run: async (ctx, v) => {
      const actor = systemActor("admin:workspace:time-zone", str(v, "workspace"));
      const zone = opt(v, "set");
      const timeZone =
        zone === undefined
          ? await getWorkspaceTimeZone(ctx, actor)
          : (await updateWorkspaceTimeZone(ctx, actor, { timeZone: zone })).timeZone;
      return { workspace_id: str(v, "workspace"), time_zone: timeZone };
    },
  },
};

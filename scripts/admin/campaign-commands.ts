import { readFileSync } from "node:fs";

import { systemActor, type Actor } from "@/lib/actor";
import {
  cancelCampaign,
  pauseCampaign,
  resumeCampaign,
  scheduleCampaign,
  sendCampaignNow,
  unscheduleCampaign,
} from "@/lib/campaigns/campaign-actions";
import { scheduleCampaignAtLocalTime } from "@/lib/campaigns/local-time-schedule";
import { scheduleSchema, type Schedule } from "@/lib/campaigns/local-time-schemas";
import { offsetLabel } from "@/lib/campaigns/local-time-zones";
import { resendToNonOpeners } from "@/lib/campaigns/resend-to-non-openers";
import { createCampaign } from "@/lib/campaigns/save-campaign";
import { showCampaign } from "@/lib/campaigns/show-campaign";
import type { Ctx } from "@/lib/context";
import type { CampaignHealth } from "@/lib/deliverability/campaign-health";
import { getCampaignHealthOrThrow } from "@/lib/deliverability/show-campaign-health";
import { validationFailed } from "@/lib/errors";
import { parseInput } from "@/lib/validation/parse-input";

import { opt, str, string, type AdminCommand } from "./admin-command";

/** Campaigns: created from files, sent, scheduled, paused, resumed, cancelled, resent to non-openers and shown. */
export const campaignCommands: Record<string, AdminCommand> = {
  "campaign:create": {
    summary: "--workspace ID --brand ID --topic ID [--list ID] --name N --subject S --html FILE [--text FILE]",
    options: {
      workspace: string,
      brand: string,
      topic: string,
      list: string,
      name: string,
      subject: string,
      html: string,
      text: string,
    },
    required: ["workspace", "brand", "topic", "name", "subject", "html"],
    run: async (ctx, v) => {
      const { campaignId } = await createCampaign(ctx, systemActor("admin-cli", str(v, "workspace")), {
        brandId: str(v, "brand"),
        topicId: str(v, "topic"),
        listId: opt(v, "list"),
        name: str(v, "name"),
        subject: str(v, "subject"),
        html: readFileSync(str(v, "html"), "utf8"),
        text: opt(v, "text") ? readFileSync(str(v, "text"), "utf8") : undefined,
      });
      return { campaign_id: campaignId };
    },
  },
  ...campaignAction("campaign:send", sendCampaignNow),
  ...campaignAction("campaign:unschedule", unscheduleCampaign),
  ...campaignAction("campaign:pause", pauseCampaign),
  "campaign:resume": {
    summary: "--campaign ID [--acknowledge]   (--acknowledge: you read campaign:health, after a guardrail pause)",
    options: { campaign: string, acknowledge: { type: "boolean" } },
    required: ["campaign"],
    run: async (ctx, v) => {
      const campaign = await resumeCampaign(ctx, systemActor("admin-cli"), str(v, "campaign"), {
        acknowledged: v.acknowledge === true,
      });
      return { campaign_id: campaign.id, status: campaign.status };
    },
  },
  "campaign:health": {
    summary: "--campaign ID   (complaint and permanent-bounce rates against the guardrail's thresholds)",
    options: { campaign: string },
    required: ["campaign"],
    document: true,
    run: async (ctx, v) => {
      const health = await getCampaignHealthOrThrow(ctx, systemActor("admin-cli"), str(v, "campaign"));
      const scope = ({ judged, judgement }: CampaignHealth["campaign"]) => ({
        delivered: judged.delivered,
        complained: judged.complained,
        hard_bounced: judged.hardBounced,
        complaint_rate: judgement.complaintRate,
        hard_bounce_rate: judgement.hardBounceRate,
        verdict: judgement.verdict,
      });
      const t = health.thresholds;
      return {
        campaign_id: health.campaignId,
        verdict: health.verdict,
        reason: health.reason,
        scope: health.scope,
        paused_by: health.pausedBy && { reason: health.pausedBy.reason, scope: health.pausedBy.scope },
        since_resume: health.acknowledgedAt?.toISOString() ?? null,
        campaign: scope(health.campaign),
        brand_24h: scope(health.brand),
        thresholds: {
          complaint_warn_percent: t.complaintWarnPercent,
          complaint_stop_percent: t.complaintStopPercent,
          hard_bounce_warn_percent: t.hardBounceWarnPercent,
          hard_bounce_stop_percent: t.hardBounceStopPercent,
          minimum_delivered: t.minimumDelivered,
        },
      };
    },
  },
  ...campaignAction("campaign:cancel", async (ctx, actor, id) => (await cancelCampaign(ctx, actor, id)).campaign),
  "campaign:schedule": {
    summary:
      "--campaign ID (--at TIMESTAMP | --local-time HH:MM --date YYYY-MM-DD)   (--local-time: at HH:MM in each recipient's time zone)",
    options: { campaign: string, at: string, "local-time": string, date: string },
    required: ["campaign"],
    run: async (ctx, v) => {
      if (opt(v, "local-time") !== undefined || opt(v, "date") !== undefined) {
        const input = { mode: "local", date: opt(v, "date"), time: opt(v, "local-time") };
        const local = parseInput(scheduleSchema, input) as Extract<Schedule, { mode: "local" }>;
        const { campaign, slices } = await scheduleCampaignAtLocalTime(
          ctx,
          systemActor("admin-cli"),
          str(v, "campaign"),
          local,
        );
        return {
          campaign_id: campaign.id,
          status: campaign.status,
          scheduled_at: campaign.scheduledAt!.toISOString(),
          local_time: local.time,
          date: local.date,
          slices: slices.map((slice) => ({
            at: slice.dueAt.toISOString(),
            utc_offset: offsetLabel(slice.offsetMinutes),
            time_zones: slice.zones,
          })),
        };
      }
      if (opt(v, "at") === undefined)
        throw validationFailed("at", "at: give --at TIMESTAMP, or --local-time and --date.");
      const at = new Date(str(v, "at"));
      if (Number.isNaN(at.getTime()))
        throw validationFailed("at", "at: must be a timestamp such as 2026-12-01T09:00:00Z.");
      const campaign = await scheduleCampaign(ctx, systemActor("admin-cli"), str(v, "campaign"), at);
      return { campaign_id: campaign.id, status: campaign.status, scheduled_at: at.toISOString() };
    },
  },
  "campaign:resend-non-openers": {
    summary: "--campaign ID --subject S --wait-hours N   (a new campaign to its recipients who did not open it)",
    options: { campaign: string, subject: string, "wait-hours": string },
    required: ["campaign", "subject", "wait-hours"],
    run: async (ctx, v) => {
      const { campaignId, scheduledAt } = await resendToNonOpeners(ctx, systemActor("admin-cli"), str(v, "campaign"), {
        subject: str(v, "subject"),
        waitHours: str(v, "wait-hours"),
      });
      return {
        campaign_id: campaignId,
        resend_of: str(v, "campaign"),
        status: scheduledAt ? "scheduled" : "draft",
        scheduled_at: scheduledAt?.toISOString() ?? null,
      };
    },
  },
  "campaign:show": {
    summary: "--campaign ID   (counts, and each recipient not sent to with the reason)",
    options: { campaign: string },
    required: ["campaign"],
    run: async (ctx, v) => {
      const { campaign, counts, skipped } = await showCampaign(ctx, systemActor("admin-cli"), str(v, "campaign"));
      return { campaign_id: campaign.id, status: campaign.status, counts, skipped };
    },
  },
};

/** The status commands share one shape: --campaign ID → {campaign_id, status}. */
function campaignAction(
  name: string,
  act: (ctx: Ctx, actor: Actor, campaignId: string) => Promise<{ id: string; status: string }>,
): Record<string, AdminCommand> {
  return {
    [name]: {
      summary: "--campaign ID",
      options: { campaign: string },
      required: ["campaign"],
      run: async (ctx, v) => {
        const campaign = await act(ctx, systemActor("admin-cli"), str(v, "campaign"));
        return { campaign_id: campaign.id, status: campaign.status };
      },
    },
  };
}

import { readFileSync } from "node:fs";

import { systemActor } from "@/lib/actor";
import { getAbTest, removeAbTest, saveAbTest } from "@/lib/campaigns/ab-test";
import { AB_VARIANT_LABELS, abWinnerSchema, variantIndex } from "@/lib/campaigns/ab-test-schemas";
import { abVariantFigures, pickAbWinner } from "@/lib/campaigns/ab-test-winner";
import { showCampaign } from "@/lib/campaigns/show-campaign";
import { notFound } from "@/lib/errors";
import { parseInput } from "@/lib/validation/parse-input";

import { opt, str, string, type AdminCommand } from "./admin-command";

const label = (variant: number | null) => (variant === null ? null : AB_VARIANT_LABELS[variant]!);

/** A/B tests of campaigns: set on a draft, shown with each variant's figures, and a winner picked sooner than the wait. */
export const abTestCommands: Record<string, AdminCommand> = {
  "campaign:ab-test": {
    summary:
      "--campaign ID --dimension subject|sender_name|content --variant V --variant V [--variant V] [--share PERCENT|everyone] [--metric clicks|human_opens] [--wait-minutes N]   (content: each --variant is an HTML file)",
    options: {
      campaign: string,
      dimension: string,
      variant: { type: "string", multiple: true },
      share: string,
      metric: string,
      "wait-minutes": string,
    },
    required: ["campaign", "dimension", "variant"],
    run: async (ctx, v) => {
      const dimension = str(v, "dimension");
      const variants = (v.variant as string[]).map((value) =>
        dimension === "content" ? readFileSync(value, "utf8") : value,
      );
      const test = await saveAbTest(ctx, systemActor("admin-cli"), str(v, "campaign"), {
        dimension: dimension as "subject",
        variants,
        testShare: opt(v, "share") ?? "20",
        metric: (opt(v, "metric") ?? "clicks") as "clicks",
        waitMinutes: opt(v, "wait-minutes") ?? "120",
      });
      return {
        campaign_id: test.campaignId,
        dimension: test.dimension,
        variants: test.variants.length,
        test_percent: test.testPercent,
        metric: test.metric,
        wait_minutes: test.waitMinutes,
      };
    },
  },
  "campaign:ab-test-remove": {
    summary: "--campaign ID   (a draft's A/B test taken away)",
    options: { campaign: string },
    required: ["campaign"],
    run: async (ctx, v) => {
      const { removed } = await removeAbTest(ctx, systemActor("admin-cli"), str(v, "campaign"));
      return { campaign_id: str(v, "campaign"), removed };
    },
  },
  "campaign:ab-show": {
    summary: "--campaign ID   (each variant's sends, sent, human opens and clicks, and the winner)",
    options: { campaign: string },
    required: ["campaign"],
    document: true,
    run: async (ctx, v) => {
      const actor = systemActor("admin-cli");
      const { campaign } = await showCampaign(ctx, actor, str(v, "campaign"));
      const test = await getAbTest(ctx, actor, campaign.id);
      if (!test) throw notFound("ab_test_not_found", `Campaign ${campaign.id} has no A/B test.`, "campaign");
      const figures = await abVariantFigures(ctx, campaign, test);
      return {
        campaign_id: campaign.id,
        dimension: test.dimension,
        metric: test.metric,
        test_percent: test.testPercent,
        decide_at: test.decideAt?.toISOString() ?? null,
        winner: label(test.winner),
        winner_picked_by: test.winnerPickedBy,
        variants: figures.map((row) => ({
          variant: row.variant === null ? "rest" : label(row.variant),
          value: row.variant === null ? null : test.variants[row.variant]!.slice(0, 200),
          sends: row.sends,
          sent: row.sent,
          human_opens: row.humanOpens,
          clicks: row.clicks,
        })),
      };
    },
  },
  "campaign:ab-winner": {
    summary: "--campaign ID --variant A|B|C   (picks the winner before the wait ends; the rest are sent it)",
    options: { campaign: string, variant: string },
    required: ["campaign", "variant"],
    run: async (ctx, v) => {
      const { variant } = parseInput(abWinnerSchema, { variant: str(v, "variant").toUpperCase() });
      const { label: winner } = await pickAbWinner(
        ctx,
        systemActor("admin-cli"),
        str(v, "campaign"),
        variantIndex(variant),
      );
      return { campaign_id: str(v, "campaign"), winner };
    },
  },
};

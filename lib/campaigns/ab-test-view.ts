import "server-only";

import { eq } from "drizzle-orm";

import { actorLabelText, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { users, type campaigns } from "@/lib/db/schema";

import { getAbTest, type AbTest } from "./ab-test";
import { abVariantFigures, canPickAbWinner, type AbVariantFigures } from "./ab-test-winner";

type Campaign = typeof campaigns.$inferSelect;

/** What the campaign page and its report show of an A/B test: settings, figures, the winner and who chose it. */
export interface AbTestView {
  dimension: AbTest["dimension"];
  metric: AbTest["metric"];
  variants: string[];
  testPercent: number | null;
  waitMinutes: number;
  winner: number | null;
  pickedBy: string | null;
  decideAt: Date | null;
  running: boolean;
  /** Whether a person may pick the winner now (ab-test-winner.ts canPickAbWinner). */
  pickable: boolean;
  figures: AbVariantFigures[];
}

/** The campaign's A/B test as its screens show it, or null when it has none. */
export async function getAbTestView(ctx: Ctx, actor: Actor, campaign: Campaign): Promise<AbTestView | null> {
  const test = await getAbTest(ctx, actor, campaign.id);
  if (!test) return null;
  const figures = test.assignedAt ? await abVariantFigures(ctx, campaign, test) : [];
  return {
    dimension: test.dimension,
    metric: test.metric,
    variants: test.variants,
    testPercent: test.testPercent,
    waitMinutes: test.waitMinutes,
    winner: test.winner,
    pickedBy: await pickedByInWords(ctx, test.winnerPickedBy),
    decideAt: test.decideAt,
    running: test.assignedAt !== null,
    pickable: test.winner === null && canPickAbWinner(campaign.status, test),
    figures,
  };
}

async function pickedByInWords(ctx: Ctx, label: string | null): Promise<string | null> {
  if (!label) return null;
  if (label === "metric") return "its metric after the wait";
  if (!label.startsWith("user:")) return actorLabelText(label, null);
  const [user] = await ctx.db
    .select({ email: users.email })
    .from(users)
    .where(eq(users.id, label.slice(5)));
  return actorLabelText(label, user?.email ?? null);
}

import "server-only";

import type { Ctx } from "@/lib/context";
import { workspaceBilling } from "@/lib/db/schema";
import { env } from "@/lib/env";

import { DAY_MS, TRIAL_DAYS, TRIAL_SEND_ALLOWANCE } from "./plan-defaults";
import type { Currency } from "./plans";

/**
 * Puts a new workspace on the ladder: a trial when its owner has not had one,
 * read-only (until a plan is chosen) when they have. The currency is fixed here.
 * System: called by createWorkspace as the workspace is made; no person's request reaches it otherwise.
 */
export async function startBilling(
  ctx: Ctx,
  workspaceId: string,
  ownerHadTrial: boolean,
  currency: Currency = "usd",
): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.insert(workspaceBilling).values({
    workspaceId,
    stage: ownerHadTrial ? "read_only" : "trial",
    stageEnteredAt: now,
    trialEndsAt: ownerHadTrial ? null : new Date(now.getTime() + TRIAL_DAYS * DAY_MS),
    sendAllowance: ownerHadTrial ? 0 : TRIAL_SEND_ALLOWANCE,
    currency,
    provider: env().STRIPE_SECRET_KEY ? "stripe" : "manual",
    periodStartedAt: now,
    createdAt: now,
  });
}

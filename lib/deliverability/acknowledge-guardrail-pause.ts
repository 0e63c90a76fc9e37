import "server-only";

import { eq } from "drizzle-orm";

import { actorLabel, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { campaignGuardrails, type campaigns } from "@/lib/db/schema";
import { ApiError } from "@/lib/errors";

import { currentHarmCounts } from "./campaign-health";
import { REASON_WORDS } from "./judge-health";

/**
 * Internal: resuming a campaign the guardrail paused takes a person who has seen the figures: a member
 * or the operator, saying so with `acknowledged`. An API key cannot. The counts at that moment are kept:
 * from then on the guardrail judges the mail sent after the resume (docs/readings.md, "Guardrails:
 * pausing on harm"), so the figures acknowledged do not pause it again, and new harm does.
 * Called inside the resume's transaction, with the campaign it locked.
 */
export async function acknowledgeGuardrailPause(
  ctx: Ctx,
  actor: Actor,
  campaign: typeof campaigns.$inferSelect,
  acknowledged: boolean,
): Promise<void> {
  const [guardrail] = await ctx.db
    .select()
    .from(campaignGuardrails)
    .where(eq(campaignGuardrails.campaignId, campaign.id))
    .for("update");
  if (!guardrail?.pauseReason) return;
  const why = `It was paused because its ${guardrail.pauseScope === "brand" ? "brand's " : ""}${REASON_WORDS[guardrail.pauseReason]} reached the stop threshold.`;
  if (actor.kind === "api_key")
    throw new ApiError({
      type: "permission_error",
      code: "resume_needs_a_person",
      message: `${why} A person resumes it from the dashboard, with the figures in front of them.`,
    });
  if (!acknowledged)
    throw new ApiError({
      type: "invalid_request_error",
      code: "harm_not_acknowledged",
      param: "acknowledged",
      message: `${why} Resume it only after reading the figures, and confirm that you have.`,
    });
  await ctx.db
    .update(campaignGuardrails)
    .set({
      pauseReason: null,
      pauseScope: null,
      acknowledged: await currentHarmCounts(ctx, campaign),
      acknowledgedAt: ctx.clock.now(),
      acknowledgedBy: actorLabel(actor),
    })
    .where(eq(campaignGuardrails.campaignId, campaign.id));
}

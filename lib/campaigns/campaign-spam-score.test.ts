import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { scoreMessages, scoreOutgoingMessage, type SpamScore } from "@/lib/deliverability/spam-score";
import { SPAM_SCORE_GOOD_BELOW, spamScoreLevel } from "@/lib/deliverability/spam-score-levels";
import { STARTER_DOCUMENT } from "@/lib/email-blocks/email-extensions";
import { composeMessage } from "@/lib/mail/build-message";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { campaignFromEditor } from "./campaign-body";
import { previewCampaignMail } from "./preview-campaign-mail";
import { createCampaign } from "./save-campaign";

const { ctx } = testCtx();

/** The bodies a new campaign starts from when the workspace has no template of its own. */
const STARTER_TEMPLATES: [string, Record<string, unknown>][] = [
  ["the new campaign's starter document", STARTER_DOCUMENT],
];

/** A campaign of a new workspace, previewed as dispatch would send it: its topic has no subscriber, so with sample values. */
async function previewed(body: { subject: string; document?: Record<string, unknown>; html?: string; text?: string }) {
  const { workspaceId, brandId } = await seedWorkspace(ctx);
  const topicId = await seedTopic(ctx, workspaceId, brandId);
  const actor = systemActor("test", workspaceId);
  const [input, source] = await campaignFromEditor(ctx, actor, {
    brandId,
    topicId,
    name: "Campaign",
    html: "",
    ...body,
  });
  const { campaignId } = await createCampaign(ctx, actor, input, source);
  const preview = await previewCampaignMail(ctx, actor, campaignId, undefined);
  expect(preview.as.sample).toBe(true);
  if (!preview.asSent) throw new Error("the preview has no message to score");
  return preview.asSent;
}

function scored(score: SpamScore) {
  if (!score.available) throw new Error(`not scored (${score.reason}): is Debian's spamassassin installed?`);
  return score;
}

describe("the spam score of a campaign", () => {
  it("the starter templates score below 2.0 with SpamAssassin's local rules, as sent with sample values: headers, List-Unsubscribe, tracked links and open pixel, footer", async () => {
    const messages = await Promise.all(
      STARTER_TEMPLATES.map(([, document]) => previewed({ subject: "What's new this month", document })),
    );
    for (const message of messages) {
      expect(message.headers).toMatchObject({ "List-Unsubscribe": expect.stringMatching(/^<http/) });
      expect(message.html).toContain("/t/o/");
    }
    const scores = await scoreMessages(
      messages.map((message) => composeMessage(message, ctx.clock.now()).raw.toString()),
    );
    const results = scores.map((score, i) => ({
      template: STARTER_TEMPLATES[i]![0],
      score: scored(score).score,
      rules: scored(score).rules.map((rule) => `${rule.name} ${rule.score}`),
    }));
    expect(results.filter((result) => result.score >= SPAM_SCORE_GOOD_BELOW)).toEqual([]);
  });

  it("the preview reports the score and the rules hit: an obviously spammy campaign scores past 5, each rule named with what it looks for", async () => {
    const message = await previewed({
      subject: "FREE!!! CLICK NOW TO WIN $1,000,000 CASH",
      html: `<html><body><p><font size="7" color="red"><b>100% GUARANTEED!!! MAKE MONEY FAST!!!</b></font></p>
<p>Act now: this limited time offer is RISK FREE. No credit check, eliminate your bad credit, earn $50,000 a week from home.
Cheap viagra and cialis, no prescription needed. You have been selected to WIN $1,000,000 dollars!!!</p>
<p><a href="https://win-cash.example/claim">CLICK HERE NOW</a></p></body></html>`,
      text: "FREE!!! CLICK NOW TO WIN $1,000,000 CASH. 100% GUARANTEED. Act now, risk free.",
    });
    const score = scored(await scoreOutgoingMessage(ctx.clock, message));
    expect(score.score).toBeGreaterThan(5);
    expect(spamScoreLevel(score)).toBe("bad");
    expect(score.rules.length).toBeGreaterThan(2);
    // Highest first, each with SpamAssassin's description of it.
    expect(score.rules.map((rule) => rule.score)).toEqual(
      [...score.rules.map((rule) => rule.score)].sort((a, b) => b - a),
    );
    for (const rule of score.rules)
      expect(rule).toEqual({
        name: expect.stringMatching(/^[A-Z0-9_]+$/),
        score: expect.any(Number),
        description: expect.stringMatching(/\S/),
      });
    expect(score.rules.reduce((sum, rule) => sum + rule.score, 0)).toBeCloseTo(score.score, 0);
  });

  it("a mail's score is kept per rendered message: the same mail is not scored again, a changed one is", async () => {
    const message = await previewed({
      subject: "Our autumn letter",
      html: "<p>The roast is in.</p>",
      text: "The roast is in.",
    });
    const first = scoreOutgoingMessage(ctx.clock, message);
    expect(scoreOutgoingMessage(ctx.clock, { ...message })).toBe(first);
    const changed = scoreOutgoingMessage(ctx.clock, { ...message, subject: "Our winter letter" });
    expect(changed).not.toBe(first);
    scored(await first);
    scored(await changed);
    expect(scoreOutgoingMessage(ctx.clock, { ...message })).toBe(first);
  });
});

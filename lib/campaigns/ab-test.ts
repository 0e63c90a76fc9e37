import "server-only";

import { and, eq } from "drizzle-orm";

import { inActorWorkspace, type Actor } from "@/lib/actor";
import { withTransaction, type Ctx } from "@/lib/context";
import { attributeDefinitions, campaignAbTests, campaigns, type brands } from "@/lib/db/schema";
import { notFound, validationFailed } from "@/lib/errors";
import { parseInput } from "@/lib/validation/parse-input";

import { abTestSchema, type AbTestInput } from "./ab-test-schemas";
import { canEdit } from "./campaign-status";
import { assertKnownMergeTags } from "./merge-tags";

export type AbTest = typeof campaignAbTests.$inferSelect;
type Campaign = typeof campaigns.$inferSelect;
type Brand = typeof brands.$inferSelect;

async function editableCampaign(ctx: Ctx, actor: Actor, campaignId: string): Promise<Campaign> {
  const [campaign] = await ctx.db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.id, campaignId), inActorWorkspace(actor, campaigns.workspaceId)))
    .for("update");
  if (!campaign) throw notFound("campaign_not_found", `No campaign ${campaignId}.`);
  if (!canEdit(campaign.status))
    throw validationFailed("campaignId", "campaignId: the campaign's sending has started; its A/B test is fixed.");
  return campaign;
}

/** The campaign's A/B test, or null; another workspace's campaign has none. */
export async function getAbTest(ctx: Ctx, actor: Actor, campaignId: string): Promise<AbTest | null> {
  const [test] = await ctx.db
    .select()
    .from(campaignAbTests)
    .where(and(eq(campaignAbTests.campaignId, campaignId), inActorWorkspace(actor, campaignAbTests.workspaceId)));
  return test ?? null;
}

/**
 * Adds or replaces a draft's (or scheduled campaign's) A/B test. The variants' merge tags must exist,
 * as the campaign's own must.
 */
export async function saveAbTest(ctx: Ctx, actor: Actor, campaignId: string, input: AbTestInput): Promise<AbTest> {
  const test = parseInput(abTestSchema, input);
  return withTransaction(ctx, async (tx) => {
    const campaign = await editableCampaign(tx, actor, campaignId);
    if (test.dimension !== "sender_name") {
      const keys = await tx.db
        .select({ key: attributeDefinitions.key })
        .from(attributeDefinitions)
        .where(eq(attributeDefinitions.workspaceId, campaign.workspaceId));
      assertKnownMergeTags(
        Object.fromEntries(test.variants.map((value, index) => [`variants.${index}`, value])),
        new Set(keys.map((k) => k.key)),
      );
    }
    const values = {
      dimension: test.dimension,
      variants: test.variants.map((value) => value.trim()),
      testPercent: test.testShare === "everyone" ? null : test.testShare,
      metric: test.metric,
      waitMinutes: test.waitMinutes,
      updatedAt: tx.clock.now(),
    };
    const [saved] = await tx.db
      .insert(campaignAbTests)
      .values({ campaignId: campaign.id, workspaceId: campaign.workspaceId, ...values })
      .onConflictDoUpdate({ target: campaignAbTests.campaignId, set: values })
      .returning();
    return saved!;
  });
}

/** Takes a draft's A/B test away: the campaign goes to its whole audience as written. */
export function removeAbTest(ctx: Ctx, actor: Actor, campaignId: string): Promise<{ removed: boolean }> {
  return withTransaction(ctx, async (tx) => {
    await editableCampaign(tx, actor, campaignId);
    const gone = await tx.db
      .delete(campaignAbTests)
      .where(eq(campaignAbTests.campaignId, campaignId))
      .returning({ id: campaignAbTests.campaignId });
    return { removed: gone.length > 0 };
  });
}

/**
 * The campaign and brand a send of `variant` is rendered from: the variant's subject, sender name
 * (the From's display name) or HTML body (its text part then derived from the HTML: the campaign's
 * own text belongs to its own body) in place of the campaign's.
 */
export function withAbVariant<C extends Pick<Campaign, "subject" | "html" | "text" | "document">, B extends Brand>(
  campaign: C,
  brand: B,
  test: Pick<AbTest, "dimension" | "variants"> | null,
  variant: number | null,
): { campaign: C; brand: B } {
  const value = test && variant !== null ? test.variants[variant] : undefined;
  if (value === undefined) return { campaign, brand };
  if (test!.dimension === "subject") return { campaign: { ...campaign, subject: value }, brand };
  if (test!.dimension === "sender_name") return { campaign, brand: { ...brand, name: value } };
  return { campaign: { ...campaign, html: value, text: plainText(value), document: null }, brand };
}

/** A text part for an HTML variant: its words without the markup (links keep their address). */
function plainText(html: string): string {
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, "")
    .replace(/<a\s[^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/gi, "$2 ($1)")
    .replace(/<br\s*\/?>|<\/(p|div|h[1-6]|li|tr)>/gi, "\n")
    .replace(/<[^>]+>/g, "")
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/[ \t]+/g, " ")
    .replace(/\n\s*\n+/g, "\n\n")
    .trim();
}

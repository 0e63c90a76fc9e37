import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { Ctx } from "@/lib/context";
import { attributeDefinitions, campaigns, lists, topics } from "@/lib/db/schema";
import { ApiError, notFound, validationFailed } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { getBrandOrThrow } from "@/lib/brands/get-brand-or-throw";
import { nameField } from "@/lib/validation/fields";
import { parseInput } from "@/lib/validation/parse-input";
import { assertKnownMergeTags } from "./merge-tags";

const campaignSchema = z.strictObject({
  workspaceId: z.string(),
  brandId: z.string(),
  topicId: z.string(),
  listId: z.string().nullish(),
  name: nameField,
  subject: z.string().trim().min(1, "must not be empty").max(998),
  html: z.string().min(1, "must not be empty").max(2 * 1024 * 1024),
  text: z.string().max(2 * 1024 * 1024).nullish(),
});
export type CampaignInput = z.input<typeof campaignSchema>;

/** The brand, topic and list must belong together in the workspace, and every merge tag must exist. */
async function checkCampaign(ctx: Ctx, input: z.infer<typeof campaignSchema>) {
  await getBrandOrThrow(ctx, input.brandId, input.workspaceId);
  const [topic] = await ctx.db.select().from(topics).where(and(eq(topics.id, input.topicId), eq(topics.workspaceId, input.workspaceId)));
  if (!topic || topic.archivedAt) throw notFound("topic_not_found", `No topic ${input.topicId}.`, "topicId");
  if (topic.brandId !== input.brandId) throw validationFailed("topicId", "topicId: the topic belongs to another brand.");
  if (input.listId) {
    const [list] = await ctx.db.select().from(lists).where(and(eq(lists.id, input.listId), eq(lists.workspaceId, input.workspaceId)));
    if (!list) throw notFound("list_not_found", `No list ${input.listId}.`, "listId");
  }
  const definitions = await ctx.db.select({ key: attributeDefinitions.key }).from(attributeDefinitions).where(eq(attributeDefinitions.workspaceId, input.workspaceId));
  assertKnownMergeTags({ subject: input.subject, html: input.html, text: input.text }, new Set(definitions.map((d) => d.key)));
}

/** A new campaign is a draft. */
export async function createCampaign(ctx: Ctx, input: CampaignInput): Promise<{ campaignId: string }> {
  const values = parseInput(campaignSchema, input);
  await checkCampaign(ctx, values);
  const campaignId = newId("cmp");
  const now = ctx.clock.now();
  await ctx.db.insert(campaigns).values({ id: campaignId, ...values, listId: values.listId ?? null, text: values.text ?? null, createdAt: now, updatedAt: now });
  return { campaignId };
}

/** Drafts and scheduled campaigns can be edited; once dispatch has started the content is fixed. */
export async function updateCampaign(ctx: Ctx, campaignId: string, input: CampaignInput): Promise<void> {
  const values = parseInput(campaignSchema, input);
  const [campaign] = await ctx.db.select().from(campaigns).where(and(eq(campaigns.id, campaignId), eq(campaigns.workspaceId, values.workspaceId)));
  if (!campaign) throw notFound("campaign_not_found", `No campaign ${campaignId}.`);
  if (campaign.status !== "draft" && campaign.status !== "scheduled") {
    throw new ApiError({ type: "invalid_request_error", code: "campaign_not_editable", message: `A ${campaign.status} campaign cannot be edited.` });
  }
  await checkCampaign(ctx, values);
  await ctx.db
    .update(campaigns)
    .set({ ...values, listId: values.listId ?? null, text: values.text ?? null, updatedAt: ctx.clock.now() })
    .where(eq(campaigns.id, campaignId));
}

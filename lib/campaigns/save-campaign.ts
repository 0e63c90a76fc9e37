import "server-only";

import { and, eq } from "drizzle-orm";
import type { z } from "zod";

import { inActorWorkspace, requireActorWorkspace, systemActor, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { attributeDefinitions, brands, campaigns, lists, segments, topics } from "@/lib/db/schema";
import { ApiError, notFound, validationFailed } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { parseInput } from "@/lib/validation/parse-input";

import { campaignSchema, type CampaignInput } from "./campaign-schemas";
import { canEdit } from "./campaign-status";
import { assertKnownMergeTags } from "./merge-tags";

type CampaignValues = z.output<typeof campaignSchema>;

/** The brand, topic and list must belong together in the campaign's workspace, and every merge tag must exist. */
async function checkCampaign(ctx: Ctx, workspaceId: string, input: CampaignValues) {
  const [brand] = await ctx.db
    .select({ id: brands.id })
    .from(brands)
    .where(and(eq(brands.id, input.brandId), eq(brands.workspaceId, workspaceId)));
  if (!brand) throw notFound("brand_not_found", `No brand ${input.brandId}.`);
  const [topic] = await ctx.db
    .select()
    .from(topics)
    .where(and(eq(topics.id, input.topicId), eq(topics.workspaceId, workspaceId)));
  if (!topic || topic.archivedAt) throw notFound("topic_not_found", `No topic ${input.topicId}.`, "topicId");
  if (topic.brandId !== input.brandId)
    throw validationFailed("topicId", "topicId: the topic belongs to another brand.");
  if (input.listId) {
    const [list] = await ctx.db
      .select()
      .from(lists)
      .where(and(eq(lists.id, input.listId), eq(lists.workspaceId, workspaceId)));
    if (!list) throw notFound("list_not_found", `No list ${input.listId}.`, "listId");
  }
  if (input.segmentId) {
    const [segment] = await ctx.db
      .select({ id: segments.id })
      .from(segments)
      .where(and(eq(segments.id, input.segmentId), eq(segments.workspaceId, workspaceId)));
    if (!segment) throw notFound("segment_not_found", `No segment ${input.segmentId}.`, "segmentId");
  }
  const definitions = await ctx.db
    .select({ key: attributeDefinitions.key })
    .from(attributeDefinitions)
    .where(eq(attributeDefinitions.workspaceId, workspaceId));
  assertKnownMergeTags(
    { subject: input.subject, previewText: input.previewText, html: input.html, text: input.text },
    new Set(definitions.map((d) => d.key)),
  );
}

/** The body's source: the block editor's document, or none when the HTML was written by hand. */
type Source = { document?: Record<string, unknown> | null };

/** A new campaign is a draft, in the actor's workspace. */
export async function createCampaign(
  ctx: Ctx,
  actor: Actor,
  input: CampaignInput,
  source: Source = {},
): Promise<{ campaignId: string }> {
  const values = parseInput(campaignSchema, input);
  const workspaceId = requireActorWorkspace(actor);
  await checkCampaign(ctx, workspaceId, values);
  const campaignId = newId("cmp");
  const now = ctx.clock.now();
  await ctx.db.insert(campaigns).values({
    id: campaignId,
    workspaceId,
    ...values,
    ...nullsOf(values),
    document: source.document ?? null,
    createdAt: now,
    updatedAt: now,
  });
  return { campaignId };
}

/** Drafts and scheduled campaigns can be edited; once dispatch has started the content is fixed. */
export async function updateCampaign(
  ctx: Ctx,
  actor: Actor,
  campaignId: string,
  input: CampaignInput,
  source: Source = {},
): Promise<void> {
  const values = parseInput(campaignSchema, input);
  const [campaign] = await ctx.db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.id, campaignId), inActorWorkspace(actor, campaigns.workspaceId)));
  if (!campaign) throw notFound("campaign_not_found", `No campaign ${campaignId}.`);
  if (!canEdit(campaign.status)) {
    throw new ApiError({
      type: "invalid_request_error",
      code: "campaign_not_editable",
      message: `A ${campaign.status} campaign cannot be edited.`,
    });
  }
  // The campaign's workspace, not the actor's: a system actor reaching across workspaces has none.
  await checkCampaign(ctx, campaign.workspaceId, values);
  await ctx.db
    .update(campaigns)
    .set({ ...values, ...nullsOf(values), document: source.document ?? null, updatedAt: ctx.clock.now() })
    .where(eq(campaigns.id, campaignId));
}

/** Optional fields left out are stored as null, so an edit that empties one clears it. */
function nullsOf(values: CampaignValues) {
  return {
    listId: values.listId ?? null,
    segmentId: values.segmentId ?? null,
    // Without a segment there is nothing to include or exclude; with one, including is what a segment is for.
    segmentMode: values.segmentId ? (values.segmentMode ?? "include") : null,
    previewText: values.previewText || null,
    text: values.text ?? null,
    includeInactive: values.includeInactive ?? false,
  };
}

/** A new draft with another campaign's content and audience, whatever that campaign's state. */
export async function duplicateCampaign(ctx: Ctx, actor: Actor, campaignId: string): Promise<{ campaignId: string }> {
  const [source] = await ctx.db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.id, campaignId), inActorWorkspace(actor, campaigns.workspaceId)));
  if (!source) throw notFound("campaign_not_found", `No campaign ${campaignId}.`);
  const name = `Copy of ${source.name}`.slice(0, 200);
  // In the source's workspace, which the actor was just shown to reach (an operator's system actor names none).
  const {
    brandId,
    topicId,
    listId,
    segmentId,
    segmentMode,
    subject,
    previewText,
    html,
    text,
    document,
    includeInactive,
  } = source;
  return createCampaign(
    ctx,
    systemActor("duplicate-campaign", source.workspaceId),
    { brandId, topicId, listId, segmentId, segmentMode, name, subject, previewText, html, text, includeInactive },
    { document },
  );
}

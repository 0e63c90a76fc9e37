import "server-only";

import { and, asc, eq } from "drizzle-orm";

import type { WorkspaceActor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { contacts, subscriptions } from "@/lib/db/schema";

import { getCampaignWithBrandOrThrow } from "./campaign-with-brand";
import { renderCampaignMail, SAMPLE_CONTACT, type RenderedCampaignMail } from "./render-campaign-mail";

/** Subscribers offered as "preview as"; any other contact can be typed in. */
const CANDIDATES = 20;

export interface CampaignMailPreview {
  /** Whose mail this is; `sample` when no real contact was found to preview as. */
  as: { email: string; sample: boolean };
  /** The mail, or the merge tag this contact has no value for (dispatch would skip them). */
  mail: RenderedCampaignMail | { missing: string };
  candidates: string[];
}

/**
 * The campaign's mail as one contact would receive it: the one asked for (any
 * contact of the workspace), else the topic's first subscriber, else a sample.
 * Rendered as dispatch renders it, untracked: opening the preview counts nothing.
 */
export async function previewCampaignMail(
  ctx: Ctx,
  actor: WorkspaceActor,
  campaignId: string,
  asEmail: string | undefined,
): Promise<CampaignMailPreview> {
  const row = await getCampaignWithBrandOrThrow(ctx, actor, campaignId);
  const subscribers = await ctx.db
    .select({
      id: contacts.id,
      email: contacts.email,
      firstName: contacts.firstName,
      lastName: contacts.lastName,
      attributes: contacts.attributes,
    })
    .from(subscriptions)
    .innerJoin(contacts, eq(contacts.id, subscriptions.contactId))
    .where(and(eq(subscriptions.topicId, row.campaign.topicId), eq(subscriptions.state, "subscribed")))
    .orderBy(asc(subscriptions.contactId))
    .limit(CANDIDATES);
  const [asked] = asEmail
    ? await ctx.db
        .select()
        .from(contacts)
        .where(and(eq(contacts.workspaceId, actor.workspaceId), eq(contacts.email, asEmail.trim().toLowerCase())))
    : [];
  const contact = asked ?? subscribers[0];
  return {
    as: { email: contact?.email ?? SAMPLE_CONTACT.email, sample: !contact },
    mail: renderCampaignMail(row.campaign, row.brand, contact ?? SAMPLE_CONTACT, "snd_preview", { tracked: false }),
    candidates: subscribers.map((subscriber) => subscriber.email),
  };
}

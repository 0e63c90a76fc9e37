import "server-only";

import { and, asc, eq } from "drizzle-orm";

import type { WorkspaceActor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { contacts, subscriptions } from "@/lib/db/schema";
import type { OutgoingMessage } from "@/lib/mail/outgoing-message";

import { campaignMessage } from "./campaign-message";
import { getCampaignWithBrandOrThrow } from "./campaign-with-brand";
import { renderCampaignMail, SAMPLE_CONTACT, type RenderedCampaignMail } from "./render-campaign-mail";

/** Subscribers offered as "preview as"; any other contact can be typed in. */
const CANDIDATES = 20;

/** Stands for the send in the preview's links: a click on one of them counts nothing. */
const PREVIEW_SEND_ID = "snd_preview";

export interface CampaignMailPreview {
  /** Whose mail this is; `sample` when no real contact was found to preview as. */
  as: { email: string; sample: boolean };
  /** The mail, or the merge tag this contact has no value for (dispatch would skip them). */
  mail: RenderedCampaignMail | { missing: string };
  candidates: string[];
  /** The message dispatch would hand over for this contact (tracked, with its headers): what the spam score is taken on. */
  asSent: OutgoingMessage | null;
}

/**
 * The campaign's mail as one contact would receive it: the one asked for (any
 * contact of the workspace), else the topic's first subscriber, else a sample.
 * Rendered as dispatch renders it, untracked: opening the preview counts nothing. The
 * message as sent, tracked, goes with it for the spam score.
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
  const contact = asked ?? subscribers[0] ?? SAMPLE_CONTACT;
  const sent = renderCampaignMail(row.campaign, row.brand, contact, PREVIEW_SEND_ID, { tracked: true });
  return {
    as: { email: contact.email, sample: contact === SAMPLE_CONTACT },
    mail: renderCampaignMail(row.campaign, row.brand, contact, PREVIEW_SEND_ID, { tracked: false }),
    candidates: subscribers.map((subscriber) => subscriber.email),
    asSent:
      "missing" in sent
        ? null
        : campaignMessage(
            row.campaign,
            row.brand,
            { contactId: contact.id, email: contact.email },
            PREVIEW_SEND_ID,
            sent,
          ),
  };
}

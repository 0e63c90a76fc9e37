import { listHeaders } from "@/lib/consent/list-headers";
import type { brands, campaigns } from "@/lib/db/schema";
import { feedbackId } from "@/lib/mail/feedback-id";
import type { OutgoingMessage } from "@/lib/mail/outgoing-message";

import type { RenderedCampaignMail } from "./render-campaign-mail";

type Brand = typeof brands.$inferSelect;
type Campaign = Pick<typeof campaigns.$inferSelect, "id" | "workspaceId" | "topicId" | "brandId">;

/**
 * One recipient's campaign mail as dispatch hands it to the transport: from the brand, replies to
 * its reply-to address, with the one-click unsubscribe headers every topic mail carries and its
 * Feedback-ID (lib/mail/feedback-id.ts). The
 * preview's spam score is taken on the same message, so it scores what recipients get.
 */
export function campaignMessage(
  campaign: Campaign,
  brand: Brand,
  recipient: { contactId: string; email: string },
  sendId: string,
  mail: RenderedCampaignMail,
): OutgoingMessage {
  const target = { contactId: recipient.contactId, topicId: campaign.topicId, campaignId: campaign.id, sendId };
  return {
    workspaceId: campaign.workspaceId,
    idempotencyKey: sendId,
    from: { name: brand.name, address: brand.senderEmail },
    replyTo: brand.replyTo ?? undefined,
    to: recipient.email,
    subject: mail.subject,
    html: mail.html,
    text: mail.text,
    headers: {
      ...listHeaders(target, brand),
      "Feedback-ID": feedbackId({ stream: campaign.id, brandId: campaign.brandId, workspaceId: campaign.workspaceId }),
    },
  };
}

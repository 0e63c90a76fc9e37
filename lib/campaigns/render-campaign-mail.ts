import { consentFooter, withConsentFooter } from "@/lib/consent/consent-footer";
import type { brands, campaigns, contacts } from "@/lib/db/schema";
import { prependToBody } from "@/lib/mail/body-edges";
import { addTracking } from "@/lib/tracking/tracking-links";

import { renderMergeTags, type MergeValues } from "./merge-tags";

type Brand = typeof brands.$inferSelect;
type Campaign = Pick<
  typeof campaigns.$inferSelect,
  "id" | "topicId" | "subject" | "previewText" | "html" | "text" | "document"
>;
type Contact = Pick<typeof contacts.$inferSelect, "id" | "email" | "firstName" | "lastName" | "attributes">;

export interface RenderedCampaignMail {
  subject: string;
  /** The body (tracked when sent) and the consent footer, whose links are never tracked. */
  html: string;
  text: string;
}

/** Made-up values for a mail shown to someone who is not a contact (a preview, a test): every part still shows. */
export const SAMPLE_CONTACT = {
  id: "ct_sample",
  email: "subscriber@example.com",
  firstName: "Ada",
  lastName: "Lovelace",
  attributes: {},
};

/**
 * The value of a merge tag for one recipient of a brand's campaign. Names are
 * looked up among own properties only: an attribute called `constructor` is
 * missing for a contact without it, never Object.prototype's function.
 */
export function mergeValuesFor(contact: Contact, brand: Brand): MergeValues {
  return (tag) => {
    const [namespace, name] = tag.split(".") as [string, string];
    if (namespace === "brand") {
      const values = {
        name: brand.name,
        legal_name: brand.legalName,
        postal_address: brand.postalAddress,
        website_url: brand.websiteUrl,
      };
      return Object.hasOwn(values, name) ? values[name as keyof typeof values] : undefined;
    }
    if (name === "email") return contact.email;
    if (name === "first_name") return contact.firstName;
    if (name === "last_name") return contact.lastName;
    return Object.hasOwn(contact.attributes, name) ? String(contact.attributes[name]) : undefined;
  };
}

/**
 * One recipient's mail, as dispatch sends it and the dashboard previews it:
 * merge tags filled (a used tag without a value names the tag instead, and
 * the recipient is skipped), links and opens tracked when it is sent, and
 * the one visible consent footer on both parts: inside the column of a body
 * written in blocks, where its footer block is (else at its end).
 */
export function renderCampaignMail(
  campaign: Campaign,
  brand: Brand,
  contact: Contact,
  sendId: string,
  options: { tracked: boolean },
): RenderedCampaignMail | { missing: string } {
  const values = mergeValuesFor(contact, brand);
  const subject = renderMergeTags(campaign.subject, values, "header");
  const preheader = renderMergeTags(campaign.previewText ?? "", values, "html");
  const html = renderMergeTags(campaign.html, values, "html");
  const text = renderMergeTags(campaign.text ?? "", values, "text");
  if ("missing" in subject) return subject;
  if ("missing" in preheader) return preheader;
  if ("missing" in html) return html;
  if ("missing" in text) return text;
  const footer = consentFooter(
    { contactId: contact.id, topicId: campaign.topicId, campaignId: campaign.id, sendId },
    brand,
  );
  const withPreheader = preheader.text ? prependToBody(html.text, hiddenPreheader(preheader.text)) : html.text;
  const body = options.tracked ? addTracking(withPreheader, sendId) : withPreheader;
  return {
    subject: subject.text,
    html: withConsentFooter(body, footer, { blocks: Boolean(campaign.document) }),
    text: `${text.text || ""}${footer.text}`,
  };
}

/** The inbox shows it after the subject; the opened mail does not. */
function hiddenPreheader(text: string): string {
  return `<div style="display:none;overflow:hidden;line-height:1px;opacity:0;max-height:0;max-width:0">${text}</div>`;
}

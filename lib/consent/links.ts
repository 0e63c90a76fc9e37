import { appUrl } from "@/lib/runtime/app-url";
import { signToken, verifyToken } from "@/lib/tokens/signed-token";

/** The double opt-in link: names the confirmation request (and so its subscription and sending time). */
export function confirmationUrl(requestId: string): string {
  return `${appUrl()}/confirm/${signToken("confirm", { r: requestId })}`;
}

/** The campaign mail a link came in: the campaign and that recipient's send. */
export interface CampaignMail {
  campaignId?: string;
  sendId?: string;
}

export interface UnsubscribeTarget extends CampaignMail {
  contactId: string;
  topicId: string;
}

/** Token fields m (campaign) and s (send), present only for campaign mail. */
function campaignFields(mail: CampaignMail) {
  return { ...(mail.campaignId ? { m: mail.campaignId } : {}), ...(mail.sendId ? { s: mail.sendId } : {}) };
}

function readCampaignFields(payload: { m?: string; s?: string }): CampaignMail {
  return { ...(payload.m ? { campaignId: payload.m } : {}), ...(payload.s ? { sendId: payload.s } : {}) };
}

function unsubscribeToken(target: UnsubscribeTarget): string {
  return signToken("unsubscribe", { c: target.contactId, t: target.topicId, ...campaignFields(target) });
}

/** The page people see: its button unsubscribes, and it leads to the preference centre. */
export function unsubscribePageUrl(target: UnsubscribeTarget): string {
  return `${appUrl()}/unsubscribe/${unsubscribeToken(target)}`;
}

/** The List-Unsubscribe URI: RFC 8058 one-click POST; a GET only shows the page. */
export function oneClickUnsubscribeUrl(target: UnsubscribeTarget): string {
  return `${appUrl()}/u/${unsubscribeToken(target)}`;
}

export function preferencesUrl(contactId: string, brandId: string, mail: CampaignMail = {}): string {
  return `${appUrl()}/preferences/${signToken("preferences", { c: contactId, b: brandId, ...campaignFields(mail) })}`;
}

/** What an unsubscribe link names, or null for a forged or altered one. */
export function readUnsubscribeToken(token: string): UnsubscribeTarget | null {
  const payload = verifyToken<{ c: string; t: string; m?: string; s?: string }>("unsubscribe", token);
  return payload ? { contactId: payload.c, topicId: payload.t, ...readCampaignFields(payload) } : null;
}

export interface PreferencesLink extends CampaignMail {
  contactId: string;
  brandId: string;
}

export function readPreferencesToken(token: string): PreferencesLink | null {
  const payload = verifyToken<{ c: string; b: string; m?: string; s?: string }>("preferences", token);
  return payload ? { contactId: payload.c, brandId: payload.b, ...readCampaignFields(payload) } : null;
}

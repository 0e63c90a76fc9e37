import { appUrl } from "@/lib/runtime/app-url";
import { signToken, verifyToken } from "@/lib/tokens/signed-token";

/** The double opt-in link: names the confirmation request (and so its subscription and sending time). */
export function confirmationUrl(requestId: string): string {
  return `${appUrl()}/confirm/${signToken("confirm", { r: requestId })}`;
}

export interface UnsubscribeTarget {
  contactId: string;
  topicId: string;
  campaignId?: string;
}

function unsubscribeToken(target: UnsubscribeTarget): string {
  return signToken("unsubscribe", { c: target.contactId, t: target.topicId, ...(target.campaignId ? { m: target.campaignId } : {}) });
}

/** The page people see: its button unsubscribes, and it leads to the preference centre. */
export function unsubscribePageUrl(target: UnsubscribeTarget): string {
  return `${appUrl()}/unsubscribe/${unsubscribeToken(target)}`;
}

/** The List-Unsubscribe URI: RFC 8058 one-click POST; a GET only shows the page. */
export function oneClickUnsubscribeUrl(target: UnsubscribeTarget): string {
  return `${appUrl()}/u/${unsubscribeToken(target)}`;
}

export function preferencesUrl(contactId: string, brandId: string, campaignId?: string): string {
  return `${appUrl()}/preferences/${signToken("preferences", { c: contactId, b: brandId, ...(campaignId ? { m: campaignId } : {}) })}`;
}

/** What an unsubscribe link names, or null for a forged or altered one. */
export function readUnsubscribeToken(token: string): UnsubscribeTarget | null {
  const payload = verifyToken<{ c: string; t: string; m?: string }>("unsubscribe", token);
  return payload ? { contactId: payload.c, topicId: payload.t, ...(payload.m ? { campaignId: payload.m } : {}) } : null;
}

export function readPreferencesToken(token: string): { contactId: string; brandId: string; campaignId?: string } | null {
  const payload = verifyToken<{ c: string; b: string; m?: string }>("preferences", token);
  return payload ? { contactId: payload.c, brandId: payload.b, ...(payload.m ? { campaignId: payload.m } : {}) } : null;
}

import { escapeHtml } from "@/lib/mail/escape-html";
import { oneClickUnsubscribeUrl, preferencesUrl, unsubscribePageUrl, type UnsubscribeTarget } from "./links";

interface Brand {
  id: string;
  name: string;
  legalName: string;
  postalAddress: string;
  senderEmail: string;
}

/**
 * Every topic mail carries these: RFC 8058 one-click unsubscribe (a POST to
 * the List-Unsubscribe URI unsubscribes from the topic) and a List-Id naming
 * the topic. Without them nothing is sent.
 */
export function listHeaders(target: UnsubscribeTarget, brand: Brand): Record<string, string> {
  const domain = brand.senderEmail.split("@")[1] ?? "localhost";
  return {
    "List-Unsubscribe": `<${oneClickUnsubscribeUrl(target)}>`,
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    "List-Id": `<${target.topicId.replace(/_/g, "-")}.${domain}>`,
  };
}

/** The visible unsubscribe and preference links and the brand's postal address, for both parts. */
export function consentFooter(target: UnsubscribeTarget, brand: Brand) {
  const unsubscribe = unsubscribePageUrl(target);
  const preferences = preferencesUrl(target.contactId, brand.id, target);
  const e = escapeHtml;
  return {
    text: `\n--\nUnsubscribe: ${unsubscribe}\nPreferences: ${preferences}\n${brand.legalName}, ${brand.postalAddress}\n`,
    html: `<hr style="border:none;border-top:1px solid #d9dee7;margin:24px 0 12px">
<p style="color:#5b6475;font-size:13px"><a href="${e(unsubscribe)}">Unsubscribe</a> · <a href="${e(preferences)}">Manage preferences</a><br>${e(brand.legalName)}, ${e(brand.postalAddress)}</p>`,
  };
}

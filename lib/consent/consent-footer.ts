import { appendToBody } from "@/lib/mail/body-edges";
import { escapeHtml } from "@/lib/mail/escape-html";
import { fillFooterSlot } from "@/lib/mail/footer-slot";

import { preferencesUrl, unsubscribePageUrl, type UnsubscribeTarget } from "./links";

interface Brand {
  id: string;
  legalName: string;
  postalAddress: string;
}

const SMALL =
  "font-family:Helvetica, Arial, sans-serif;font-size:12px;line-height:18px;color:#6b7280;text-align:center;margin:0 0 4px";
const LINK = "color:#6b7280;text-decoration:underline";

export interface ConsentFooter {
  text: string;
  /** For the mail's own column: the slot a block-written body leaves for it. */
  inColumn: string;
  /** After a body whose layout is unknown: a centred column of its own, 600 px at most. */
  html: string;
}

/**
 * The visible unsubscribe and preference links and the brand's legal name and
 * postal address, for both parts of every topic mail: the one footer of the
 * mail, in its font (a footer block in the body marks only where it goes).
 */
export function consentFooter(target: UnsubscribeTarget, brand: Brand): ConsentFooter {
  const unsubscribe = unsubscribePageUrl(target);
  const preferences = preferencesUrl(target.contactId, brand.id, target);
  const e = escapeHtml;
  const inColumn =
    `<hr style="border:none;border-top:1px solid #e5e7eb;margin:24px 0 16px">` +
    `<p style="${SMALL}"><a href="${e(unsubscribe)}" style="${LINK}">Unsubscribe</a> · <a href="${e(preferences)}" style="${LINK}">Manage preferences</a></p>` +
    `<p style="${SMALL}">${e(brand.legalName)}, ${e(brand.postalAddress)}</p>`;
  return {
    text: `\n--\nUnsubscribe: ${unsubscribe}\nPreferences: ${preferences}\n${brand.legalName}, ${brand.postalAddress}\n`,
    inColumn,
    html:
      `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0"><tr><td align="center" style="padding:0 16px 24px">` +
      `<table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0" style="width:100%;max-width:600px"><tr><td>${inColumn}</td></tr></table>` +
      `</td></tr></table>`,
  };
}

/**
 * The footer in a mail's HTML: in the slot of a body the block editor wrote
 * (inside its column), else after the body. A hand-written body's slot is not
 * honoured: where the service's renderer did not put it, it might be hidden.
 */
export function withConsentFooter(html: string, footer: ConsentFooter, options: { blocks: boolean }): string {
  return (options.blocks ? fillFooterSlot(html, footer.inColumn) : null) ?? appendToBody(html, footer.html);
}

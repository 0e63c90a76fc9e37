import { appendToBody } from "@/lib/mail/body-edges";
import { escapeHtml } from "@/lib/mail/escape-html";
import { appUrl } from "@/lib/runtime/app-url";
import { signToken, verifyToken } from "@/lib/tokens/signed-token";

export function openPixelUrl(sendId: string): string {
  return `${appUrl()}/t/o/${signToken("open", { s: sendId })}`;
}

/** The destination is inside the signed token: the redirect goes only where the mail's own link went. */
export function clickUrl(sendId: string, url: string): string {
  return `${appUrl()}/t/c/${signToken("click", { s: sendId, u: url })}`;
}

export function readOpenToken(token: string): { sendId: string } | null {
  const payload = verifyToken<{ s: string }>("open", token);
  return payload ? { sendId: payload.s } : null;
}

export function readClickToken(token: string): { sendId: string; url: string } | null {
  const payload = verifyToken<{ s: string; u: string }>("click", token);
  return payload && /^https?:\/\//i.test(payload.u) ? { sendId: payload.s, url: payload.u } : null;
}

/**
 * Routes the body's http(s) links through click tracking and adds the open
 * pixel. Applied to the campaign body before the unsubscribe footer is
 * appended, so consent links are never rewritten.
 */
export function addTracking(html: string, sendId: string): string {
  const tracked = html.replace(
    /(<a\b[^>]*\bhref\s*=\s*")(https?:\/\/[^"]+)(")/gi,
    (_match, start: string, url: string, end: string) => {
      const target = url.replace(/&amp;/g, "&");
      return `${start}${escapeHtml(clickUrl(sendId, target))}${end}`;
    },
  );
  return appendToBody(
    tracked,
    `<img src="${escapeHtml(openPixelUrl(sendId))}" width="1" height="1" alt="" style="display:block;border:0;width:1px;height:1px">`,
  );
}

/**
 * The body without its open pixel, for the Test mailbox: it shows fifty messages at once, and
 * loading every pixel would count an open for each recipient nobody looked at.
 */
export function withoutOpenPixel(html: string): string {
  const pixelStart = escapeHtml(`${appUrl()}/t/o/`).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return html.replace(new RegExp(`<img src="${pixelStart}[^"]*"[^>]*>`, "g"), "");
}

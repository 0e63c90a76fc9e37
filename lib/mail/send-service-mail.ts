import "server-only";

import type { Ctx } from "@/lib/context";
import type { ServiceMailKind } from "@/lib/db/schema/mail-messages";
import { newId } from "@/lib/ids";
import { logger } from "@/lib/log/logger";
import { appUrl } from "@/lib/runtime/app-url";

import { escapeHtml } from "./escape-html";
import { feedbackId } from "./feedback-id";
import { getMailTransport } from "./get-mail-transport";
import { serviceSender } from "./service-sender";

export interface ServiceMail {
  /** What its link does: it decides who may read it in the test mailbox (lib/mail/list-mailbox.ts). */
  kind: ServiceMailKind;
  /** The workspace whose data it belongs to (an invitation, an address to confirm); none for mail to a person (a reset, a notice to an owner). */
  workspaceId?: string;
  to: string;
  subject: string;
  /** Plain sentences; each becomes a paragraph of both parts. */
  paragraphs: string[];
  /** The one thing to click: shown as a link in HTML and as the bare address in text. */
  link?: { href: string; label: string };
  /** Set when a retry must not mail again (a workflow step): the transport stores or sends a key once. */
  idempotencyKey?: string;
}

/**
 * The service's own mail (an invitation, an address to confirm, a password
 * reset, a review's decision), never a workspace's: the local test mailbox
 * shows it only to the members its kind allows, never to every member. Each
 * call is a new message unless it names an idempotency key already used.
 * False when the transport refused it, so the caller can say so.
 */
export async function sendServiceMail(ctx: Ctx, mail: ServiceMail): Promise<boolean> {
  const link = mail.link ?? null;
  const text = [...mail.paragraphs, ...(link ? [`${link.label}: ${link.href}`] : [])].join("\n\n");
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5">${mail.paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join("")}${
    link ? `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>` : ""
  }</body></html>`;
  try {
    await getMailTransport().send(ctx, {
      workspaceId: mail.workspaceId ?? null,
      serviceMail: mail.kind,
      idempotencyKey: mail.idempotencyKey ?? `service-${newId("msg")}`,
      from: serviceSender(),
      to: mail.to,
      subject: mail.subject,
      text: `${text}\n`,
      html,
      headers: {
        "Feedback-ID": feedbackId({ stream: mail.kind, brandId: null, workspaceId: mail.workspaceId ?? null }),
      },
    });
    return true;
  } catch (error) {
    logger().error({ err: error, subject: mail.subject }, "service mail not sent");
    return false;
  }
}

/** The workspace's dashboard, linked from the service's mail about it. */
export const workspaceLink = (workspaceId: string) => ({
  href: `${appUrl()}/w/${workspaceId}`,
  label: "Open the workspace",
});

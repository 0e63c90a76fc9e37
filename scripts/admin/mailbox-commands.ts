import { systemActor } from "@/lib/actor";
import type { DeliveryOutcome } from "@/lib/deliverability/apply-delivery-outcome";
import { validationFailed } from "@/lib/errors";
import { listMailbox } from "@/lib/mail/list-mailbox";
import { simulateOutcome } from "@/lib/mail/simulate-outcome";

import { opt, str, string, type AdminCommand } from "./admin-command";

/** The local transport's mailbox: what was sent, and what a provider would report of it. */
export const mailboxCommands: Record<string, AdminCommand> = {
  "mailbox:list": {
    summary: "[--to EMAIL] [--workspace ID] [--limit N]   (the local transport's mailbox, newest first)",
    options: { to: string, workspace: string, limit: string },
    required: [],
    run: async (ctx, v) => {
      const messages = await listMailbox(ctx, systemActor("admin-cli", opt(v, "workspace")), {
        to: opt(v, "to"),
        limit: Number(opt(v, "limit") ?? 50),
      });
      return {
        messages: messages.map((m) => ({
          id: m.id,
          to: m.to,
          from: m.from,
          subject: m.subject,
          headers: m.headers,
          text: m.text,
          html: m.html,
          links: m.links,
          sent_at: m.sentAt.toISOString(),
        })),
      };
    },
  },
  "mailbox:event": {
    summary:
      "--message ID --type delivered|bounced|complained [--bounce-type permanent|transient|undetermined]   (what a provider would report)",
    options: { message: string, type: string, "bounce-type": string },
    required: ["message", "type"],
    run: async (ctx, v) => {
      const type = str(v, "type");
      const bounceType = opt(v, "bounce-type") ?? "permanent";
      if (!["delivered", "bounced", "complained"].includes(type))
        throw validationFailed("type", "type: must be delivered, bounced or complained.");
      if (!["permanent", "transient", "undetermined"].includes(bounceType))
        throw validationFailed("bounce-type", "bounce-type: must be permanent, transient or undetermined.");
      const outcome: DeliveryOutcome =
        type === "bounced"
          ? { type: "bounced", bounceType: bounceType as "permanent" }
          : { type: type as "delivered" | "complained" };
      const { suppressed } = await simulateOutcome(ctx, systemActor("admin-cli"), str(v, "message"), outcome);
      return {
        message_id: str(v, "message"),
        type,
        ...(type === "bounced" ? { bounce_type: bounceType } : {}),
        suppressed,
      };
    },
  },
};

import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";

import { createdAt, id } from "./columns";
import { workspaces } from "./workspaces";

/**
 * The service's own mail, by what its link does: who may read it in the test mailbox follows from the kind
 * (lib/mail/list-mailbox.ts). An invitation sets a password, a verification lets the sandbox mail an address,
 * a reset sets a password, a notice (a review's decision, a billing reminder) is for its recipient.
 */
export const SERVICE_MAIL_KINDS = ["invitation", "verify_address", "password_reset", "notice"] as const;
export type ServiceMailKind = (typeof SERVICE_MAIL_KINDS)[number];

/**
 * The local mailbox: what the `local` transport "sends" is stored here as the
 * complete RFC 5322 message, readable in the dashboard and by the admin CLI.
 */
export const mailMessages = pgTable(
  "mail_messages",
  {
    id: id("id").primaryKey(),
    /** The workspace the mail is for or about; null for a password reset, which is about a person. */
    workspaceId: id("workspace_id").references(() => workspaces.id, { onDelete: "cascade" }),
    /** Null for a workspace's own mail (every member reads it); else the service's own mail of this kind. */
    serviceMail: text("service_mail", { enum: SERVICE_MAIL_KINDS }),
    /** The sender's idempotency key (a send id, a confirmation request id): a retry stores nothing twice. */
    idempotencyKey: text("idempotency_key").notNull(),
    toAddress: text("to_address").notNull(),
    fromAddress: text("from_address").notNull(),
    subject: text("subject").notNull(),
    messageId: text("message_id").notNull(),
    raw: text("raw").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("mail_messages_idempotency_key").on(t.idempotencyKey),
    // The mailbox screen and `mailbox:list --to` read newest first, by recipient.
    index("mail_messages_to_idx").on(t.toAddress, t.id),
    index("mail_messages_workspace_idx").on(t.workspaceId, t.id),
  ],
);

import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, id } from "./columns";
import { workspaces } from "./workspaces";

/**
 * The local mailbox: what the `local` transport "sends" is stored here as the
 * complete RFC 5322 message, readable in the dashboard and by the admin CLI.
 */
export const mailMessages = pgTable(
  "mail_messages",
  {
    id: id("id").primaryKey(),
    workspaceId: id("workspace_id").references(() => workspaces.id, { onDelete: "cascade" }),
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

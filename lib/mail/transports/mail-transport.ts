import type { SQL } from "drizzle-orm";

import type { Ctx } from "@/lib/context";

import type { OutgoingMessage, SentMessage } from "../outgoing-message";
import type { Refusal } from "../refusal";

export type TransportName = "local" | "smtp" | "resend";

/** Hands messages to whatever delivers them. Chosen once by MAIL_TRANSPORT. */
export interface MailTransport {
  readonly name: TransportName;
  /**
   * Whether a message handed over again with the same idempotency key is dropped (local, Resend) rather
   * than delivered a second time (SMTP, which has no such key): a retry that cannot tell whether its
   * first hand-over happened may hand over again only where this holds.
   */
  readonly dropsRepeats: boolean;
  send(ctx: Ctx, message: OutgoingMessage): Promise<SentMessage>;
  /**
   * Hands the message over and writes `record`, the sender's note that it went: a data-modifying
   * statement that may run more than once and writes its note once. Where the hand-over is itself a
   * row of PostgreSQL (local), the two are one statement: one round trip and one commit, and never a
   * message stored without its record. Elsewhere the record follows the hand-over (recordAfterSend).
   */
  sendAndRecord(ctx: Ctx, message: OutgoingMessage, record: SQL): Promise<SentMessage>;
  /**
   * Campaign batches: one call for many recipients where the provider allows it. Each message's
   * outcome in order: sent, or refused by the receiving server (SMTP answers each recipient apart).
   * A failure that is no answer about a message (a connection refused) rejects the whole call.
   */
  sendBatch(ctx: Ctx, messages: OutgoingMessage[]): Promise<(SentMessage | Refusal)[]>;
  close(): Promise<void>;
}

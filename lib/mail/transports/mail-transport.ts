import type { Ctx } from "@/lib/context";

import type { OutgoingMessage, SentMessage } from "../outgoing-message";

export type TransportName = "local" | "smtp" | "resend";

/** Hands messages to whatever delivers them. Chosen once by MAIL_TRANSPORT. */
export interface MailTransport {
  readonly name: TransportName;
  send(ctx: Ctx, message: OutgoingMessage): Promise<SentMessage>;
  /** Campaign batches: one call for many recipients where the provider allows it. */
  sendBatch(ctx: Ctx, messages: OutgoingMessage[]): Promise<SentMessage[]>;
  close(): Promise<void>;
}

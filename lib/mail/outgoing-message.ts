import type { KeyObject } from "node:crypto";

import type { ServiceMailKind } from "@/lib/db/schema/mail-messages";

/**
 * A DKIM signing key: the sending domain's own (lib/domains), used by the SMTP transport. The key is
 * parsed once, not per message: signing with a PEM text parses it each time, which took three
 * quarters of each signature (1.9 ms against 0.5 ms for RSA 2048 on a 2-core machine).
 */
export interface DkimKey {
  domainName: string;
  keySelector: string;
  privateKey: KeyObject;
}

/** One message to one recipient, before it is built into RFC 5322 bytes or handed to a provider. */
export interface OutgoingMessage {
  workspaceId: string | null;
  /**
   * Stable per message (a send id, a confirmation request id): it becomes the
   * Message-ID and the provider's idempotency key, so a retried step never
   * mails twice where the transport can prevent it.
   */
  idempotencyKey: string;
  from: { name: string; address: string };
  replyTo?: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers, e.g. List-Unsubscribe and List-Id on campaign mail. */
  headers?: Record<string, string>;
  /** Signs with the sender's domain key; a provider that signs for itself (Resend) ignores it. */
  dkim?: DkimKey;
  /** Set on the service's own mail: the local mailbox shows it only to those its link is for. */
  serviceMail?: ServiceMailKind;
}

export interface SentMessage {
  /** The provider's id for the message (the local mailbox's row id for `local`). */
  providerMessageId: string;
}

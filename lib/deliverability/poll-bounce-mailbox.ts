import "server-only";

import { ImapFlow } from "imapflow";

import type { Ctx } from "@/lib/context";

import { readBounceMail } from "./read-bounce-mail";
import { receiveProviderEvent } from "./receive-provider-event";

/** Messages taken per poll: a backlog drains over a few minutes without one long run. */
const BATCH = 500;

/** BOUNCE_IMAP_URL: imap://user:password@host:143/INBOX or imaps://…:993/INBOX. */
export function imapOptions(url: string) {
  const parsed = new URL(url);
  if (parsed.protocol !== "imap:" && parsed.protocol !== "imaps:")
    throw new Error("BOUNCE_IMAP_URL must start with imap:// or imaps://");
  const secure = parsed.protocol === "imaps:";
  return {
    client: {
      host: parsed.hostname,
      port: Number(parsed.port || (secure ? 993 : 143)),
      secure,
      auth: { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) },
      logger: false as const,
    },
    mailbox: decodeURIComponent(parsed.pathname.replace(/^\//, "")) || "INBOX",
  };
}

/**
 * Reads the bounce mailbox: each message is stored as a provider report and
 * only then deleted from the mailbox, so a crash in between re-reads it next
 * time, where the stored report's Message-ID makes it a no-op.
 */
export async function pollBounceMailbox(ctx: Ctx, url: string): Promise<{ read: number }> {
  const { client: options, mailbox } = imapOptions(url);
  const client = new ImapFlow(options);
  await client.connect();
  let read = 0;
  try {
    const lock = await client.getMailboxLock(mailbox);
    try {
      const exists = client.mailbox ? client.mailbox.exists : 0;
      const messages: { uid: number; source: Buffer }[] = [];
      if (exists > 0) {
        for await (const message of client.fetch(`1:${Math.min(exists, BATCH)}`, { uid: true, source: true })) {
          if (message.source) messages.push({ uid: message.uid, source: message.source });
        }
      }
      for (const message of messages) {
        await receiveProviderEvent(ctx, await readBounceMail(message.source));
        await client.messageDelete(String(message.uid), { uid: true });
        read++;
      }
    } finally {
      lock.release();
    }
  } finally {
    await client.logout().catch(() => client.close());
  }
  return { read };
}

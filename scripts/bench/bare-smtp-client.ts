// The dispatch benchmark's floor: the SMTP transport's own connection pool (the same pool size and
// socket options) sending prebuilt messages to the same sink. No database, no workflow, no
// rendering: what the wire and the sink allow.
import type { BuiltMessage } from "@/lib/mail/build-message";
import type { DkimKey } from "@/lib/mail/outgoing-message";
import { smtpPool } from "@/lib/mail/transports/smtp-transport";

/** With `dkim`, each message is signed as the SMTP transport signs it (the same headers, the same key). */
export async function bareSmtpFloor(options: {
  port: number;
  messages: BuiltMessage[];
  connections: number;
  batch: number;
  dkim?: DkimKey;
}): Promise<number> {
  const { messages } = options;
  const pool = smtpPool({
    url: `smtp://127.0.0.1:${options.port}`,
    maxConnections: options.connections,
    dkim: options.dkim,
  });
  const started = performance.now();
  // In batches of the dispatch's size, as send-batch hands them to the transport.
  for (let from = 0; from < messages.length; from += options.batch) {
    await Promise.all(
      messages
        .slice(from, from + options.batch)
        .map((built) => pool.sendMail({ envelope: built.envelope, raw: built.raw })),
    );
  }
  const ms = performance.now() - started;
  pool.close();
  return ms;
}

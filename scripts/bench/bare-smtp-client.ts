// The dispatch benchmark's floor: the SMTP transport's own connection pool (the same pool size and
// socket options) sending prebuilt messages to the same sink. No database, no workflow, no
// rendering: what the wire and the sink allow.
import { buildMessage } from "@/lib/mail/build-message";
import { systemClock } from "@/lib/clock";
import type { DkimKey } from "@/lib/mail/outgoing-message";
import { smtpPool } from "@/lib/mail/transports/smtp-transport";

/** With `dkim`, each message is signed as the SMTP transport signs it (the same headers, an RSA key of the same size). */
export async function bareSmtpFloor(options: { port: number; mails: number; connections: number; batch: number; dkim?: DkimKey }): Promise<number> {
  const messages = Array.from({ length: options.mails }, (_, n) =>
    buildMessage(
      {
        workspaceId: null,
        idempotencyKey: `snd_floor_${n}`,
        from: { name: "Bench", address: "news@bench.example" },
        to: `person${n}@bench.example`,
        subject: `Hello P${n}`,
        html: `<p>Hello P${n}, see <a href="https://bench.example/news">the news</a>.</p>`,
        text: `Hello P${n}`,
        headers: {},
      },
      systemClock,
    ),
  );
  const pool = smtpPool({ url: `smtp://127.0.0.1:${options.port}`, maxConnections: options.connections, dkim: options.dkim });
  const started = performance.now();
  // In batches of the dispatch's size, as send-batch hands them to the transport.
  for (let from = 0; from < messages.length; from += options.batch) {
    await Promise.all(messages.slice(from, from + options.batch).map((built) => pool.sendMail({ envelope: built.envelope, raw: built.raw })));
  }
  const ms = performance.now() - started;
  pool.close();
  return ms;
}

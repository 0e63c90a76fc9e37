// The dispatch benchmark's floor: a bare pooled SMTP client (nodemailer, the same pool size and
// socket options as the SMTP transport) sending prebuilt messages to the same sink. No database,
// no workflow, no rendering: what the wire and the sink allow.
import { connect } from "node:net";
import nodemailer from "nodemailer";
import { buildMessage } from "@/lib/mail/build-message";
import { systemClock } from "@/lib/clock";
import { dkimOptions } from "@/lib/mail/transports/smtp-transport";

/** With `dkim`, each message is signed as the SMTP transport signs it (the same headers, an RSA key of the same size). */
export async function bareSmtpFloor(options: {
  port: number;
  mails: number;
  connections: number;
  batch: number;
  dkim?: { domainName: string; keySelector: string; privateKey: string };
}): Promise<number> {
  const messages = await Promise.all(
    Array.from({ length: options.mails }, (_, n) =>
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
    ),
  );
  const transporter = nodemailer.createTransport({
    host: "127.0.0.1",
    port: options.port,
    secure: false,
    ignoreTLS: true,
    pool: true,
    maxConnections: options.connections,
    maxMessages: 1000,
    ...(options.dkim ? { dkim: dkimOptions(options.dkim) } : {}),
    getSocket: (_options: unknown, callback: (error: Error | null, socket?: { connection: unknown }) => void) => {
      const socket = connect({ host: "127.0.0.1", port: options.port });
      socket.setNoDelay(true);
      socket.once("connect", () => callback(null, { connection: socket }));
      socket.once("error", (error) => callback(error));
    },
  });
  const started = performance.now();
  // In batches of the dispatch's size, as send-batch hands them to the transport.
  for (let from = 0; from < messages.length; from += options.batch) {
    await Promise.all(messages.slice(from, from + options.batch).map((built) => transporter.sendMail({ envelope: built.envelope, raw: built.raw })));
  }
  const ms = performance.now() - started;
  transporter.close();
  return ms;
}

import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/**
 * A real SMTP peer on loopback that counts the messages each recipient was sent. SMTP has no
 * idempotency key, so a message sent twice is counted twice (the local transport would store it once).
 * On `port`, or one the system picks.
 */
export async function startSmtpSink(port = 0) {
  const perRecipient = new Map<string, number>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      stream.on("end", () => {
        for (const { address } of session.envelope.rcptTo) perRecipient.set(address, (perRecipient.get(address) ?? 0) + 1);
        callback();
      });
      stream.resume();
    },
  });
  // A sending process killed by the test resets its pooled connections: not the sink's failure.
  server.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "ECONNRESET") throw error;
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const bound = (server.server.address() as AddressInfo).port;
  return { url: `smtp://127.0.0.1:${bound}`, perRecipient, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

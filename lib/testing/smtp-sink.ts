import type { AddressInfo } from "node:net";
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from "smtp-server";

/** How the peer answers a recipient it refuses (a 421 to every address of one domain), or nothing to accept it. */
export type Refuse = (address: string) => { code: number; message: string } | null;

/** A real SMTP peer on loopback, on `port` or one the system picks, handing each message to `onMessage`. */
async function listenSmtp(
  port: number,
  onMessage: (stream: SMTPServerDataStream, session: SMTPServerSession) => Promise<void>,
  refuse?: Refuse,
) {
  let connections = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onConnect(_session, callback) {
      connections++;
      callback();
    },
    onRcptTo(address, _session, callback) {
      const answer = refuse?.(address.address);
      if (!answer) return callback();
      callback(Object.assign(new Error(answer.message), { responseCode: answer.code }));
    },
    onData(stream, session, callback) {
      onMessage(stream, session).then(() => callback(), callback);
    },
  });
  // A sending process killed by the test resets its pooled connections: not the peer's failure.
  server.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "ECONNRESET") throw error;
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    /** Connections opened so far. */
    connections: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A peer that counts the messages each recipient was sent, holding nothing else (a benchmark sends it
 * hundreds of thousands). SMTP has no idempotency key, so a message sent twice is counted twice (the
 * local transport would store it once).
 */
export async function startSmtpSink(port = 0, refuse?: Refuse) {
  const perRecipient = new Map<string, number>();
  const peer = await listenSmtp(
    port,
    async (stream, session) => {
      stream.resume();
      await new Promise((resolve) => stream.on("end", resolve));
      for (const { address } of session.envelope.rcptTo)
        perRecipient.set(address, (perRecipient.get(address) ?? 0) + 1);
    },
    refuse,
  );
  return { ...peer, perRecipient };
}

export interface CapturedMail {
  from: string;
  to: string[];
  raw: Buffer;
}

/** A peer that keeps every message it is given: the envelope and the exact bytes; `refuse` answers some recipients with an error. */
export async function startSmtpCapture(refuse?: Refuse) {
  const received: CapturedMail[] = [];
  const peer = await listenSmtp(
    0,
    async (stream, session) => {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      await new Promise((resolve) => stream.on("end", resolve));
      received.push({
        from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
        to: session.envelope.rcptTo.map((r) => r.address),
        raw: Buffer.concat(chunks),
      });
    },
    refuse,
  );
  return { ...peer, received };
}

export type SmtpCapture = Awaited<ReturnType<typeof startSmtpCapture>>;

import "server-only";

import { SMTPServer } from "smtp-server";

import type { Ctx } from "@/lib/context";
import { logger } from "@/lib/log/logger";

import { readBounceMail } from "./read-bounce-mail";
import { receiveProviderEvent } from "./receive-provider-event";
import { readReturnPath } from "./return-path";

/** Bounce reports are small; anything larger is refused during DATA. */
const MAX_MESSAGE_BYTES = 2 * 1024 * 1024;

export interface BounceListenerOptions {
  port: number;
  host?: string;
  /** Only mail to this domain is accepted: the listener is nobody's relay. */
  domain: string;
  /** The one unsigned address taken, for feedback-loop reports (default `fbl`, i.e. fbl@domain). */
  feedbackLocalPart?: string;
}

/**
 * An SMTP server that receives bounces and complaint reports directly: the
 * bounce domain's MX points at it. Each message is stored as a provider
 * report before the server answers 250, so an accepted bounce is never lost;
 * a failure answers 451 and the sending server tries again later.
 */
export function startBounceListener(ctx: () => Ctx, options: BounceListenerOptions): Promise<SMTPServer> {
  const domain = options.domain.toLowerCase();
  const feedback = `${(options.feedbackLocalPart ?? "fbl").toLowerCase()}@${domain}`;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["AUTH", "STARTTLS"],
    size: MAX_MESSAGE_BYTES,
    maxClients: 50,
    banner: "bounce listener",
    logger: false,
    // Only our own signed return paths and the feedback-loop address: anything else is not a bounce of ours.
    onRcptTo(address, _session, callback) {
      const to = address.address.toLowerCase();
      if (to.endsWith(`@${domain}`) && (to === feedback || readReturnPath(to))) return callback();
      callback(
        Object.assign(new Error("No such bounce address: this server takes only bounces of its own mail"), {
          responseCode: 550,
        }),
      );
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      let bytes = 0;
      // Past the limit the rest is read and dropped, never kept: a huge message costs no memory.
      stream.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes <= MAX_MESSAGE_BYTES) chunks.push(chunk);
      });
      stream.on("end", () => {
        if (stream.sizeExceeded || bytes > MAX_MESSAGE_BYTES)
          return callback(Object.assign(new Error("Message too large"), { responseCode: 552 }));
        const recipients = session.envelope.rcptTo.map((recipient) => recipient.address);
        readBounceMail(Buffer.concat(chunks), recipients)
          .then((report) => receiveProviderEvent(ctx(), report))
          .then(
            () => callback(),
            (error: unknown) => {
              logger().error({ err: error }, "bounce listener could not store a message");
              callback(Object.assign(new Error("Try again later"), { responseCode: 451 }));
            },
          );
      });
    },
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve(server));
  });
}

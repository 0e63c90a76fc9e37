import crypto from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

export interface ReceivedWebhook {
  /** Path and query the request was made to. */
  url: string;
  /** performance.now() when the request had fully arrived. */
  receivedAt: number;
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
  body: { id: string; type: string; created_at: string; data: Record<string, unknown> };
}

/** Answers one request; the default accepts everything with 204. */
export type Responder = (request: ReceivedWebhook, response: ServerResponse) => void;

/** A real HTTP receiver on loopback that keeps every request it got. */
export async function startWebhookReceiver(responder: Responder = (_, response) => response.writeHead(204).end()) {
  const received: ReceivedWebhook[] = [];
  let respond = responder;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const rawBody = Buffer.concat(chunks);
      const webhook = {
        url: request.url ?? "",
        receivedAt: performance.now(),
        headers: request.headers,
        rawBody,
        body: JSON.parse(rawBody.toString("utf8")) as ReceivedWebhook["body"],
      };
      received.push(webhook);
      respond(webhook, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    respondWith(next: Responder) {
      respond = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type VerifyWebhook = (
  secret: string,
  header: string | undefined,
  rawBody: Buffer | string,
  now?: number,
) => boolean;

/**
 * The verification code exactly as docs/examples/webhook-receiver.mjs writes
 * it (the recipe the README and the guides point to), so the tests that use
 * it fail when the documented code stops working. Read as text and evaluated
 * with node:crypto, because Node 20 cannot load an ES module synchronously.
 */
export function documentedVerifyWebhook(): VerifyWebhook {
  const source = readFileSync(path.join(process.cwd(), "docs/examples/webhook-receiver.mjs"), "utf8");
  const tolerance = /^const TOLERANCE_MS = .*;$/m.exec(source)?.[0];
  const recipe = /^export (function verifyWebhook[\s\S]*?^})$/m.exec(source)?.[1];
  if (!tolerance || !recipe) throw new Error("docs/examples/webhook-receiver.mjs has no verifyWebhook");
  const load = new Function("createHmac", "timingSafeEqual", `${tolerance}\n${recipe}\nreturn verifyWebhook;`) as (
    ...imports: unknown[]
  ) => VerifyWebhook;
  return load(crypto.createHmac, crypto.timingSafeEqual);
}

// A webhook receiver that verifies every delivery before trusting it. Plain Node.js, no packages:
//   WEBHOOK_SECRET=whsec_… node docs/examples/webhook-receiver.mjs   (listens on http://localhost:4000)
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";
import { pathToFileURL } from "node:url";

const TOLERANCE_MS = 5 * 60 * 1000;

/**
 * True when `header` (X-Service-Signature: t=<ms>,v1=<hex>) signs `rawBody` with `secret`
 * and `t` is within 5 minutes of `now`. `rawBody` must be the bytes as received.
 */
export function verifyWebhook(secret, header, rawBody, now = Date.now()) {
  const fields = {};
  for (const part of String(header ?? "").split(",")) {
    const at = part.indexOf("=");
    if (at > 0) fields[part.slice(0, at).trim()] = part.slice(at + 1).trim();
  }
  const { t, v1 } = fields;
  if (!t || !v1 || !/^\d+$/.test(t) || !/^[0-9a-f]{64}$/i.test(v1)) return false;
  const expected = createHmac("sha256", secret).update(`${t}.`).update(rawBody).digest();
  if (!timingSafeEqual(Buffer.from(v1, "hex"), expected)) return false;
  return Math.abs(now - Number(t)) <= TOLERANCE_MS;
}

/** Answers 401 to anything unsigned, 200 to a verified delivery (deduplicated on its id). */
export function startReceiver(secret, port, onEvent = (event) => console.log(event.type, JSON.stringify(event.data))) {
  const seen = new Set();
  const server = createServer((request, response) => {
    const chunks = [];
    request.on("data", (chunk) => chunks.push(chunk));
    request.on("end", () => {
      const raw = Buffer.concat(chunks);
      if (!verifyWebhook(secret, request.headers["x-service-signature"], raw)) {
        response.writeHead(401).end();
        return;
      }
      const event = JSON.parse(raw.toString("utf8"));
      response.writeHead(200).end();
      if (!seen.has(event.id)) {
        seen.add(event.id);
        onEvent(event);
      }
    });
  });
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve(server)));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const secret = process.env.WEBHOOK_SECRET;
  if (!secret) throw new Error("Set WEBHOOK_SECRET to the endpoint's signing secret (whsec_…).");
  await startReceiver(secret, Number(process.env.PORT || 4000));
  console.log(`listening on http://localhost:${process.env.PORT || 4000}`);
}

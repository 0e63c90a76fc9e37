// The webhook benchmark's floor: a bare HTTP client (node:http, kept-alive connections) posting
// prebuilt, signed bodies to the same receiver with the same concurrency as the executor's workers.
// No database, no workflow: what the receiver and the wire allow.
import http from "node:http";

import { signatureHeader } from "@/lib/webhooks/signature";

export async function bareWebhookFloor(options: {
  port: number;
  deliveries: number;
  endpoints: number;
  concurrency: number;
}): Promise<number> {
  const secret = "whsec_floor";
  const posts = Array.from({ length: options.deliveries }, (_, n) => {
    const id = `evt_floor${String(n).padStart(21, "0")}`;
    const body = JSON.stringify({
      id,
      type: "email.opened",
      created_at: new Date().toISOString(),
      data: {
        send_id: `snd_floor${n}`,
        campaign_id: "cmp_bench",
        campaign_name: "Bench",
        contact_id: `ct_floor${Math.floor(n / 10)}`,
        email: "floor@bench.example",
        occurred_at: new Date().toISOString(),
        country: null,
      },
    });
    const headers = {
      "content-type": "application/json",
      "x-service-event-id": id,
      "x-service-event-type": "email.opened",
      "x-service-signature": signatureHeader(secret, body, Date.now()),
    };
    return { path: `/floor-${n % options.endpoints}`, body, headers };
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency });
  const post = (item: (typeof posts)[number]) =>
    new Promise<void>((resolve, reject) => {
      const request = http.request(
        {
          host: "127.0.0.1",
          port: options.port,
          path: item.path,
          method: "POST",
          agent,
          headers: { ...item.headers, "content-length": Buffer.byteLength(item.body) },
        },
        (response) => {
          response.resume();
          response.on("end", () =>
            response.statusCode === 204 ? resolve() : reject(new Error(`floor post answered ${response.statusCode}`)),
          );
        },
      );
      request.on("error", reject);
      request.end(item.body);
    });
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (next < posts.length) await post(posts[next++]!);
    }),
  );
  const ms = performance.now() - started;
  agent.destroy();
  return ms;
}

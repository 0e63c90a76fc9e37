import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { testCtx } from "@/lib/testing/test-context";

import { signedMessageId } from "../message-id";
import { resendTransport } from "./resend-transport";

const { ctx } = testCtx();
interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: unknown;
}
const seen: Seen[] = [];
let server: Server;

// Stands in for the Resend API at its HTTP boundary, checking the request shape of its contract.
beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      seen.push({ method: request.method!, path: request.url!, headers: request.headers, body });
      response.setHeader("content-type", "application/json");
      if (request.headers.authorization !== "Bearer re_test_key") {
        response.statusCode = 401;
        response.end(JSON.stringify({ name: "validation_error", message: "API key is invalid", statusCode: 401 }));
        return;
      }
      if (request.url === "/emails/batch") {
        response.end(JSON.stringify({ data: (body as unknown[]).map((_, i) => ({ id: `batch-${i}` })) }));
        return;
      }
      response.end(JSON.stringify({ id: "email-1" }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.env.RESEND_BASE_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  delete process.env.RESEND_BASE_URL;
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

const message = {
  workspaceId: null,
  idempotencyKey: "snd_resend_1",
  from: { name: 'Brand "News"', address: "news@brand.example" },
  replyTo: "help@brand.example",
  to: "reader@example.com",
  subject: "Hello\r\nthere",
  text: "text body",
  html: "<p>html body</p>",
  headers: { "List-Unsubscribe": "<https://app.example/u/t>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
};

describe("Resend transport", () => {
  it("POSTs /emails with the message and the send's id as Idempotency-Key", async () => {
    const sent = await resendTransport("re_test_key").send(ctx, message);
    expect(sent).toEqual({ providerMessageId: "email-1" });
    const request = seen.at(-1)!;
    expect(request).toMatchObject({ method: "POST", path: "/emails" });
    expect(request.headers["idempotency-key"]).toBe("snd_resend_1");
    expect(request.headers["content-type"]).toContain("application/json");
    expect(request.body).toMatchObject({
      from: '"Brand News" <news@brand.example>',
      to: ["reader@example.com"],
      subject: "Hello there",
      html: "<p>html body</p>",
      text: "text body",
      reply_to: "help@brand.example",
      headers: {
        "List-Unsubscribe": "<https://app.example/u/t>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        "Message-ID": signedMessageId("snd_resend_1", "brand.example"),
      },
    });
  });

  it("campaign batches go to /emails/batch, at most 100 a call, each call with an idempotency key", async () => {
    const before = seen.length;
    const batch = Array.from({ length: 150 }, (_, i) => ({
      ...message,
      idempotencyKey: `snd_b${i}`,
      to: `r${i}@example.com`,
    }));
    const sent = await resendTransport("re_test_key").sendBatch(ctx, batch);
    expect(sent).toHaveLength(150);
    const calls = seen.slice(before);
    expect(calls.map((c) => c.path)).toEqual(["/emails/batch", "/emails/batch"]);
    expect((calls[0]!.body as unknown[]).length).toBe(100);
    expect((calls[1]!.body as unknown[]).length).toBe(50);
    expect(calls[0]!.headers["idempotency-key"]).toMatch(/^[0-9a-f]{64}$/);
    expect(calls[0]!.headers["idempotency-key"]).not.toBe(calls[1]!.headers["idempotency-key"]);
    // The same batch again carries the same key, so Resend answers it without mailing twice.
    await resendTransport("re_test_key").sendBatch(ctx, batch.slice(0, 100));
    expect(seen.at(-1)!.headers["idempotency-key"]).toBe(calls[0]!.headers["idempotency-key"]);
  });

  it("a refusal by the API is an error, never a silent success", async () => {
    await expect(resendTransport("re_wrong").send(ctx, message)).rejects.toThrow(/API key is invalid/);
  });
});

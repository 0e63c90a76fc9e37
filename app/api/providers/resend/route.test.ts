import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { Webhook } from "svix";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sends, suppressions } from "@/lib/db/schema";
import { seedAcceptedSend } from "@/lib/testing/campaign-fixture";
import { chunkedBody, streamInit } from "@/lib/testing/chunked-body";
import { testCtx } from "@/lib/testing/test-context";
import { POST } from "./route";

const { ctx } = testCtx();
const secret = `whsec_${randomBytes(24).toString("base64")}`;
beforeAll(() => {
  process.env.RESEND_WEBHOOK_SECRET = secret;
});
afterAll(() => {
  delete process.env.RESEND_WEBHOOK_SECRET;
});

/** A request exactly as Resend (through Svix) sends it. */
function signed(payload: unknown, signingSecret = secret, at = new Date()) {
  const body = JSON.stringify(payload);
  const id = `msg_${randomBytes(8).toString("hex")}`;
  const signature = new Webhook(signingSecret).sign(id, at, body);
  return new Request("http://localhost/api/providers/resend", {
    method: "POST",
    body,
    headers: { "content-type": "application/json", "svix-id": id, "svix-timestamp": String(Math.floor(at.getTime() / 1000)), "svix-signature": signature },
  });
}

describe("POST /api/providers/resend", () => {
  it("a verified email.bounced (Permanent) marks the send bounced and suppresses the address", async () => {
    const { workspaceId, send } = await seedAcceptedSend(ctx, "hard@example.com");
    const response = await POST(
      signed({ type: "email.bounced", created_at: "2026-01-05T10:00:00.000Z", data: { email_id: send.providerMessageId, bounce: { type: "Permanent", message: "550 no such user" } } }),
    );
    expect(response.status).toBe(200);
    expect((await ctx.db.select().from(sends).where(eq(sends.id, send.id)))[0]).toMatchObject({ bounceType: "permanent", bouncedAt: new Date("2026-01-05T10:00:00.000Z") });
    expect(await ctx.db.select({ reason: suppressions.reason }).from(suppressions).where(eq(suppressions.workspaceId, workspaceId))).toEqual([{ reason: "bounce" }]);
  });

  it("delivered and complained map to the send; other event types are accepted and ignored", async () => {
    const { send } = await seedAcceptedSend(ctx, "ok@example.com");
    expect((await POST(signed({ type: "email.delivered", created_at: "2026-01-05T10:00:00.000Z", data: { email_id: send.providerMessageId } }))).status).toBe(200);
    expect((await POST(signed({ type: "email.complained", created_at: "2026-01-05T10:01:00.000Z", data: { email_id: send.providerMessageId } }))).status).toBe(200);
    expect((await POST(signed({ type: "email.opened", created_at: "2026-01-05T10:02:00.000Z", data: { email_id: send.providerMessageId } }))).status).toBe(200);
    expect((await ctx.db.select().from(sends).where(eq(sends.id, send.id)))[0]).toMatchObject({ deliveredAt: expect.any(Date), complainedAt: expect.any(Date), openedAt: null });
  });

  it("refuses what does not verify: another secret, a tampered body, missing headers, a stale timestamp", async () => {
    const { send } = await seedAcceptedSend(ctx, "forged@example.com");
    const payload = { type: "email.complained", created_at: "2026-01-05T10:00:00.000Z", data: { email_id: send.providerMessageId } };
    expect((await POST(signed(payload, `whsec_${randomBytes(24).toString("base64")}`))).status).toBe(401);
    const genuine = signed(payload);
    const tampered = new Request(genuine.url, { method: "POST", headers: genuine.headers, body: JSON.stringify({ ...payload, type: "email.delivered" }) });
    expect((await POST(tampered)).status).toBe(401);
    expect((await POST(new Request(genuine.url, { method: "POST", body: JSON.stringify(payload) }))).status).toBe(401);
    expect((await POST(signed(payload, secret, new Date(Date.now() - 10 * 60_000)))).status).toBe(401);
    expect((await ctx.db.select().from(sends).where(eq(sends.id, send.id)))[0]!.complainedAt).toBeNull();
  });

  it("bodies over 256 KiB are refused 413 payload_too_large before verifying, chunked ones without being read to their end", async () => {
    const { send } = await seedAcceptedSend(ctx, "huge@example.com");
    const body = chunkedBody(10 * 1024 * 1024, 64 * 1024);
    const chunked = await POST(new Request("http://localhost/api/providers/resend", { method: "POST", ...streamInit(body.stream) }));
    expect(chunked.status).toBe(413);
    expect(await chunked.json()).toMatchObject({ error: { type: "invalid_request_error", code: "payload_too_large", param: "body" } });
    expect(body.pulled()).toBeLessThanOrEqual(4 + 2); // 4 chunks of 64 KiB fit in 256 KiB
    const big = signed({ type: "email.complained", created_at: "2026-01-05T10:00:00.000Z", data: { email_id: send.providerMessageId }, pad: "x".repeat(256 * 1024) });
    const lying = new Request(big.url, { method: "POST", headers: { ...Object.fromEntries(big.headers), "content-length": "100" }, body: await big.text() });
    expect((await POST(lying)).status).toBe(413);
    expect((await ctx.db.select().from(sends).where(eq(sends.id, send.id)))[0]!.complainedAt).toBeNull();
  });

  it("a signed body of exactly 256 KiB is accepted", async () => {
    const { send } = await seedAcceptedSend(ctx, "cap@example.com");
    const payload = { type: "email.complained", created_at: "2026-01-05T10:00:00.000Z", data: { email_id: send.providerMessageId }, pad: "" };
    payload.pad = "x".repeat(256 * 1024 - JSON.stringify(payload).length);
    expect((await POST(signed(payload))).status).toBe(200);
    expect((await ctx.db.select().from(sends).where(eq(sends.id, send.id)))[0]!.complainedAt).toEqual(expect.any(Date));
  });
});

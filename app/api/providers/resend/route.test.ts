import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { Webhook } from "svix";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { functions } from "@/inngest";
import { inngest } from "@/inngest/client";
import { createEmbeddedExecutor } from "@/inngest/embedded/executor";
import { setWorkflowCtx } from "@/inngest/workflow-ctx";
import type { Ctx } from "@/lib/context";
import { events, providerEvents, sends, suppressions } from "@/lib/db/schema";
import { overrideEnvForTests, reloadEnv } from "@/lib/env";
import { seedAcceptedSend } from "@/lib/testing/campaign-fixture";
import { chunkedBody, streamInit } from "@/lib/testing/chunked-body";
import { testCtx } from "@/lib/testing/test-context";

import { POST } from "./route";

// The route stamps rows with the real time; the workflow clock starts ahead of it so their runs are due.
const { ctx, clock } = testCtx(new Date(Date.now() + 60 * 60_000));
const executor = createEmbeddedExecutor({ client: inngest, functions });
const secret = `whsec_${randomBytes(24).toString("base64")}`;
beforeAll(() => {
  overrideEnvForTests({ RESEND_WEBHOOK_SECRET: secret });
  setWorkflowCtx(ctx);
});
afterAll(() => {
  reloadEnv();
  setWorkflowCtx(undefined);
});

/** Posts to the route, then lets the apply-provider-event workflow run. */
async function deliver(request: Request): Promise<Response> {
  const response = await POST(request);
  await executor.runDue(ctx);
  return response;
}

const emailEventsOf = async (workspaceId: string) =>
  (await ctx.db.select({ type: events.type }).from(events).where(eq(events.workspaceId, workspaceId)))
    .map((event) => event.type)
    .filter((type) => type.startsWith("email."));

/** A context whose database refuses its next `failures` transactions, as when the server restarts. */
function flaky(base: Ctx, failures: number): Ctx {
  let left = failures;
  const db = new Proxy(base.db, {
    get(target, property, receiver) {
      if (property === "transaction" && left > 0) {
        return () => {
          left--;
          return Promise.reject(new Error("Connection terminated unexpectedly"));
        };
      }
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
  return { ...base, db };
}

/** A request exactly as Resend (through Svix) sends it; a redelivery reuses its id. */
function signed(
  payload: unknown,
  signingSecret = secret,
  at = new Date(),
  id = `msg_${randomBytes(8).toString("hex")}`,
) {
  const body = JSON.stringify(payload);
  const signature = new Webhook(signingSecret).sign(id, at, body);
  return new Request("http://localhost/api/providers/resend", {
    method: "POST",
    body,
    headers: {
      "content-type": "application/json",
      "svix-id": id,
      "svix-timestamp": String(Math.floor(at.getTime() / 1000)),
      "svix-signature": signature,
    },
  });
}

describe("POST /api/providers/resend", () => {
  it("a verified email.bounced (Permanent) marks the send bounced and suppresses the address", async () => {
    const { workspaceId, send } = await seedAcceptedSend(ctx, "hard@example.com");
    const response = await deliver(
      signed({
        type: "email.bounced",
        created_at: "2026-01-05T10:00:00.000Z",
        data: { email_id: send.providerMessageId, bounce: { type: "Permanent", message: "550 no such user" } },
      }),
    );
    expect(response.status).toBe(200);
    expect((await ctx.db.select().from(sends).where(eq(sends.id, send.id)))[0]).toMatchObject({
      bounceType: "permanent",
      bouncedAt: new Date("2026-01-05T10:00:00.000Z"),
    });
    expect(
      await ctx.db
        .select({ reason: suppressions.reason })
        .from(suppressions)
        .where(eq(suppressions.workspaceId, workspaceId)),
    ).toEqual([{ reason: "bounce" }]);
  });

  it("delivered and complained map to the send; other event types are accepted and ignored", async () => {
    const { send } = await seedAcceptedSend(ctx, "ok@example.com");
    expect(
      (
        await deliver(
          signed({
            type: "email.delivered",
            created_at: "2026-01-05T10:00:00.000Z",
            data: { email_id: send.providerMessageId },
          }),
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await deliver(
          signed({
            type: "email.complained",
            created_at: "2026-01-05T10:01:00.000Z",
            data: { email_id: send.providerMessageId },
          }),
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await deliver(
          signed({
            type: "email.opened",
            created_at: "2026-01-05T10:02:00.000Z",
            data: { email_id: send.providerMessageId },
          }),
        )
      ).status,
    ).toBe(200);
    expect((await ctx.db.select().from(sends).where(eq(sends.id, send.id)))[0]).toMatchObject({
      deliveredAt: expect.any(Date),
      complainedAt: expect.any(Date),
      openedAt: null,
    });
  });

  it("refuses what does not verify: another secret, a tampered body, missing headers, a stale timestamp", async () => {
    const { send } = await seedAcceptedSend(ctx, "forged@example.com");
    const payload = {
      type: "email.complained",
      created_at: "2026-01-05T10:00:00.000Z",
      data: { email_id: send.providerMessageId },
    };
    expect((await deliver(signed(payload, `whsec_${randomBytes(24).toString("base64")}`))).status).toBe(401);
    const genuine = signed(payload);
    const tampered = new Request(genuine.url, {
      method: "POST",
      headers: genuine.headers,
      body: JSON.stringify({ ...payload, type: "email.delivered" }),
    });
    expect((await deliver(tampered)).status).toBe(401);
    expect((await deliver(new Request(genuine.url, { method: "POST", body: JSON.stringify(payload) }))).status).toBe(
      401,
    );
    expect((await deliver(signed(payload, secret, new Date(Date.now() - 10 * 60_000)))).status).toBe(401);
    expect((await ctx.db.select().from(sends).where(eq(sends.id, send.id)))[0]!.complainedAt).toBeNull();
  });

  it("bodies over 256 KiB are refused 413 payload_too_large before verifying, chunked ones without being read to their end", async () => {
    const { send } = await seedAcceptedSend(ctx, "huge@example.com");
    const body = chunkedBody(10 * 1024 * 1024, 64 * 1024);
    const chunked = await deliver(
      new Request("http://localhost/api/providers/resend", { method: "POST", ...streamInit(body.stream) }),
    );
    expect(chunked.status).toBe(413);
    expect(await chunked.json()).toMatchObject({
      error: { type: "invalid_request_error", code: "payload_too_large", param: "body" },
    });
    expect(body.pulled()).toBeLessThanOrEqual(4 + 2); // 4 chunks of 64 KiB fit in 256 KiB
    const big = signed({
      type: "email.complained",
      created_at: "2026-01-05T10:00:00.000Z",
      data: { email_id: send.providerMessageId },
      pad: "x".repeat(256 * 1024),
    });
    const lying = new Request(big.url, {
      method: "POST",
      headers: { ...Object.fromEntries(big.headers), "content-length": "100" },
      body: await big.text(),
    });
    expect((await deliver(lying)).status).toBe(413);
    expect((await ctx.db.select().from(sends).where(eq(sends.id, send.id)))[0]!.complainedAt).toBeNull();
  });

  it("an event delivered twice (the same svix-id) is stored once and applied once", async () => {
    const { workspaceId, send } = await seedAcceptedSend(ctx, "twice@example.com");
    const payload = {
      type: "email.bounced",
      created_at: "2026-01-05T10:00:00.000Z",
      data: { email_id: send.providerMessageId, bounce: { type: "Permanent", message: "550 5.1.1 no such user" } },
    };
    const at = new Date();
    expect((await deliver(signed(payload, secret, at, "msg_twice"))).status).toBe(200);
    expect((await deliver(signed(payload, secret, at, "msg_twice"))).status).toBe(200);
    const stored = await ctx.db.select().from(providerEvents).where(eq(providerEvents.providerEventId, "msg_twice"));
    expect(stored).toMatchObject([{ provider: "resend", state: "applied", workspaceId, attempts: 1 }]);
    expect(JSON.parse(stored[0]!.raw)).toEqual(payload);
    expect(await emailEventsOf(workspaceId)).toEqual(["email.bounced"]);
    expect(
      await ctx.db
        .select({ reason: suppressions.reason, evidenceEventId: suppressions.evidenceEventId })
        .from(suppressions)
        .where(eq(suppressions.workspaceId, workspaceId)),
    ).toEqual([{ reason: "bounce", evidenceEventId: stored[0]!.id }]);
  });

  it("an event arriving while the database is down for a moment is answered 200 and applied exactly once when it is back", async () => {
    const { workspaceId, send } = await seedAcceptedSend(ctx, "hiccup@example.com");
    setWorkflowCtx(flaky(ctx, 1));
    try {
      const response = await deliver(
        signed(
          {
            type: "email.complained",
            created_at: "2026-01-05T10:00:00.000Z",
            data: { email_id: send.providerMessageId },
          },
          secret,
          new Date(),
          "msg_hiccup",
        ),
      );
      expect(response.status).toBe(200);
      expect(
        (await ctx.db.select().from(providerEvents).where(eq(providerEvents.providerEventId, "msg_hiccup")))[0],
      ).toMatchObject({
        state: "received",
        attempts: 1,
        lastError: "Connection terminated unexpectedly",
      });
      clock.advance(60_000); // past the retry's back-off
      await executor.runDue(ctx);
    } finally {
      setWorkflowCtx(ctx);
    }
    expect(
      (await ctx.db.select().from(providerEvents).where(eq(providerEvents.providerEventId, "msg_hiccup")))[0],
    ).toMatchObject({ state: "applied", attempts: 2, lastError: null });
    expect(await emailEventsOf(workspaceId)).toEqual(["email.complained"]);
    expect((await ctx.db.select().from(sends).where(eq(sends.id, send.id)))[0]!.complainedAt).toEqual(expect.any(Date));
  });

  it("a poison event that fails on every attempt ends as failed with its error, for an operator to see", async () => {
    const { workspaceId, send } = await seedAcceptedSend(ctx, "poison@example.com");
    setWorkflowCtx(flaky(ctx, 100));
    try {
      await deliver(
        signed(
          {
            type: "email.complained",
            created_at: "2026-01-05T10:00:00.000Z",
            data: { email_id: send.providerMessageId },
          },
          secret,
          new Date(),
          "msg_poison",
        ),
      );
      for (let attempt = 0; attempt < 6; attempt++) {
        clock.advance(10 * 60_000);
        await executor.runDue(ctx);
      }
    } finally {
      setWorkflowCtx(ctx);
    }
    expect(
      (await ctx.db.select().from(providerEvents).where(eq(providerEvents.providerEventId, "msg_poison")))[0],
    ).toMatchObject({
      state: "failed",
      attempts: 6,
      lastError: "Connection terminated unexpectedly",
    });
    expect(await ctx.db.select().from(suppressions).where(eq(suppressions.workspaceId, workspaceId))).toEqual([]);
  });

  it("a signed body of exactly 256 KiB is accepted", async () => {
    const { send } = await seedAcceptedSend(ctx, "cap@example.com");
    const payload = {
      type: "email.complained",
      created_at: "2026-01-05T10:00:00.000Z",
      data: { email_id: send.providerMessageId },
      pad: "",
    };
    payload.pad = "x".repeat(256 * 1024 - JSON.stringify(payload).length);
    expect((await deliver(signed(payload))).status).toBe(200);
    expect((await ctx.db.select().from(sends).where(eq(sends.id, send.id)))[0]!.complainedAt).toEqual(expect.any(Date));
  });
});

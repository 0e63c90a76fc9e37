import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { oneClickUnsubscribeUrl } from "@/lib/consent/links";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { events, subscriptions } from "@/lib/db/schema";
import { chunkedBody, streamInit } from "@/lib/testing/chunked-body";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { GET, POST } from "./route";

const { ctx } = testCtx();

async function subscribedLink() {
  const { workspaceId, brandId } = await seedWorkspace(ctx);
  const topicId = await seedTopic(ctx, workspaceId, brandId);
  const { contact } = await upsertContact(ctx, systemActor("test", workspaceId), {
    email: "one@example.com",
    topicIds: [topicId],
  });
  const url = oneClickUnsubscribeUrl({ contactId: contact.id, topicId, campaignId: "cmp_x" });
  return { workspaceId, topicId, contactId: contact.id, url, token: url.split("/u/")[1]! };
}
const call = (handler: typeof POST, url: string, token: string, body?: string) =>
  handler(
    new Request(url, {
      method: body === undefined ? "GET" : "POST",
      body,
      headers: body === undefined ? {} : { "content-type": "application/x-www-form-urlencoded" },
    }),
    {
      params: Promise.resolve({ token }),
    },
  );
const post = (url: string, token: string, init: RequestInit) =>
  POST(new Request(url, { method: "POST", ...init }), { params: Promise.resolve({ token }) });
const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
};
const stateOf = async (contactId: string, topicId: string) =>
  (
    await ctx.db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.contactId, contactId), eq(subscriptions.topicId, topicId)))
  )[0]!.state;

describe("one-click unsubscribe (RFC 8058)", () => {
  it("a cookieless POST with List-Unsubscribe=One-Click unsubscribes from the campaign's topic at once, idempotently", async () => {
    const { workspaceId, topicId, contactId, url, token } = await subscribedLink();
    const response = await call(POST, url, token, "List-Unsubscribe=One-Click");
    expect(response.status).toBe(200);
    expect(await stateOf(contactId, topicId)).toBe("unsubscribed");
    expect((await call(POST, url, token, "List-Unsubscribe=One-Click")).status).toBe(200);
    const recorded = await ctx.db
      .select()
      .from(events)
      .where(and(eq(events.workspaceId, workspaceId), eq(events.type, "contact.unsubscribed")));
    expect(recorded).toHaveLength(1);
    expect(recorded[0]!.data).toMatchObject({ scope: "topic", topic_id: topicId, campaign_id: "cmp_x" });
  });

  it("a GET of any unsubscribe URL never changes anything", async () => {
    const { topicId, contactId, url, token } = await subscribedLink();
    const response = await call(GET, url, token);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`/unsubscribe/${token}`);
    expect(await stateOf(contactId, topicId)).toBe("subscribed");
  });

  it("a forged token or a POST without the one-click body changes nothing", async () => {
    const { topicId, contactId, url, token } = await subscribedLink();
    expect((await call(POST, url, `${token}x`, "List-Unsubscribe=One-Click")).status).toBe(400);
    expect((await call(POST, url, token, "")).status).toBe(400);
    expect(await stateOf(contactId, topicId)).toBe("subscribed");
  });

  it("a multipart/form-data body with List-Unsubscribe=One-Click unsubscribes (RFC 8058 §3.1)", async () => {
    const { topicId, contactId, url, token } = await subscribedLink();
    const response = await post(url, token, { body: form({ "List-Unsubscribe": "One-Click" }) });
    expect(response.status).toBe(200);
    expect(await stateOf(contactId, topicId)).toBe("unsubscribed");
  });

  it("a multipart/form-data body without List-Unsubscribe, or malformed, is refused and changes nothing", async () => {
    const { topicId, contactId, url, token } = await subscribedLink();
    expect((await post(url, token, { body: form({ other: "One-Click" }) })).status).toBe(400);
    const wrongBoundary = {
      body: "List-Unsubscribe=One-Click",
      headers: { "content-type": "multipart/form-data; boundary=nope" },
    };
    expect((await post(url, token, wrongBoundary)).status).toBe(400);
    expect(await stateOf(contactId, topicId)).toBe("subscribed");
  });

  it("bodies over 256 KiB are refused 413 payload_too_large, chunked ones without being read to their end", async () => {
    const { topicId, contactId, url, token } = await subscribedLink();
    const body = chunkedBody(10 * 1024 * 1024, 64 * 1024, "&");
    const chunked = await post(url, token, {
      ...streamInit(body.stream),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(chunked.status).toBe(413);
    expect(await chunked.json()).toMatchObject({
      error: { type: "invalid_request_error", code: "payload_too_large", param: "body" },
    });
    expect(body.pulled()).toBeLessThanOrEqual(4 + 2); // 4 chunks of 64 KiB fit in 256 KiB
    const big = `List-Unsubscribe=One-Click&pad=${"x".repeat(256 * 1024)}`;
    expect(
      (
        await post(url, token, {
          body: big,
          headers: { "content-type": "application/x-www-form-urlencoded", "content-length": "26" },
        })
      ).status,
    ).toBe(413);
    expect(await stateOf(contactId, topicId)).toBe("subscribed");
  });

  it("a one-click body of exactly 256 KiB is accepted", async () => {
    const { topicId, contactId, url, token } = await subscribedLink();
    const head = "List-Unsubscribe=One-Click&pad=";
    expect((await call(POST, url, token, head + "x".repeat(256 * 1024 - head.length))).status).toBe(200);
    expect(await stateOf(contactId, topicId)).toBe("unsubscribed");
  });
});

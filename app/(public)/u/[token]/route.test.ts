import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { oneClickUnsubscribeUrl } from "@/lib/consent/links";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { events, subscriptions } from "@/lib/db/schema";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";
import { GET, POST } from "./route";

const { ctx } = testCtx();

async function subscribedLink() {
  const { workspaceId, brandId } = await seedWorkspace(ctx);
  const topicId = await seedTopic(ctx, workspaceId, brandId);
  const { contact } = await upsertContact(ctx, { workspaceId, brandId: null, mode: "live" }, { email: "one@example.com", topicIds: [topicId] });
  const url = oneClickUnsubscribeUrl({ contactId: contact.id, topicId, campaignId: "cmp_x" });
  return { workspaceId, topicId, contactId: contact.id, url, token: url.split("/u/")[1]! };
}
const call = (handler: typeof POST, url: string, token: string, body?: string) =>
  handler(new Request(url, { method: body === undefined ? "GET" : "POST", body, headers: body === undefined ? {} : { "content-type": "application/x-www-form-urlencoded" } }), { params: Promise.resolve({ token }) });
const stateOf = async (contactId: string, topicId: string) =>
  (await ctx.db.select().from(subscriptions).where(and(eq(subscriptions.contactId, contactId), eq(subscriptions.topicId, topicId))))[0]!.state;

describe("one-click unsubscribe (RFC 8058)", () => {
  it("a cookieless POST with List-Unsubscribe=One-Click unsubscribes from the campaign's topic at once, idempotently", async () => {
    const { workspaceId, topicId, contactId, url, token } = await subscribedLink();
    const response = await call(POST, url, token, "List-Unsubscribe=One-Click");
    expect(response.status).toBe(200);
    expect(await stateOf(contactId, topicId)).toBe("unsubscribed");
    expect((await call(POST, url, token, "List-Unsubscribe=One-Click")).status).toBe(200);
    const recorded = await ctx.db.select().from(events).where(and(eq(events.workspaceId, workspaceId), eq(events.type, "contact.unsubscribed")));
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
});

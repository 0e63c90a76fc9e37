import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { createBrand } from "@/lib/brands/create-brand";
import { confirmationRequests, contacts, events, subscriptions } from "@/lib/db/schema";
import { apiClient } from "@/lib/testing/api-client";
import { optOut, seedKey, seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";
import { archiveTopic } from "@/lib/topics/archive-topic";

const { ctx } = testCtx();

async function setup(opts: { requiresConfirmation?: boolean; environment?: "live" | "test" } = {}) {
  const { workspaceId, brandId } = await seedWorkspace(ctx);
  const topicId = await seedTopic(ctx, workspaceId, brandId, {
    requiresConfirmation: opts.requiresConfirmation ?? true,
  });
  const { key } = await seedKey(ctx, workspaceId, { kind: "publishable", environment: opts.environment ?? "live" });
  const secret = await seedKey(ctx, workspaceId);
  return { workspaceId, brandId, topicId, form: apiClient(key), api: apiClient(secret.key) };
}

const subscriptionOf = async (topicId: string, email: string) => {
  const [row] = await ctx.db
    .select({ state: subscriptions.state, source: subscriptions.source })
    .from(subscriptions)
    .innerJoin(contacts, eq(contacts.id, subscriptions.contactId))
    .where(and(eq(subscriptions.topicId, topicId), eq(contacts.email, email)));
  return row;
};
const requestsFor = (workspaceId: string, email: string) =>
  ctx.db
    .select()
    .from(confirmationRequests)
    .where(and(eq(confirmationRequests.workspaceId, workspaceId), eq(confirmationRequests.email, email)));
const eventsOf = (workspaceId: string) => ctx.db.select().from(events).where(eq(events.workspaceId, workspaceId));

describe("POST /v1/subscribe", () => {
  it("double opt-in topic: answers confirmation_sent, the subscription is pending and a confirmation mail is requested", async () => {
    const { form, topicId, workspaceId } = await setup();
    const response = await form.post("/v1/subscribe", {
      topic_id: topicId,
      email: "New@Example.com",
      first_name: "New",
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: { status: "confirmation_sent" } });
    expect(await subscriptionOf(topicId, "new@example.com")).toEqual({ state: "pending", source: null });
    expect(await requestsFor(workspaceId, "new@example.com")).toHaveLength(1);
    // contact.subscribed fires on confirmation, not on form submission.
    expect(await eventsOf(workspaceId)).toEqual([]);
  });

  it("topic without confirmation: answers subscribed and contact.subscribed fires", async () => {
    const { form, topicId, workspaceId } = await setup({ requiresConfirmation: false });
    const response = await form.post("/v1/subscribe", { topic_id: topicId, email: "direct@example.com" });
    expect(response.body).toEqual({ data: { status: "subscribed" } });
    expect(await subscriptionOf(topicId, "direct@example.com")).toEqual({ state: "subscribed", source: "api" });
    expect(await eventsOf(workspaceId)).toMatchObject([
      { type: "contact.subscribed", data: { topic_id: topicId, email: "direct@example.com" } },
    ]);
    expect(await requestsFor(workspaceId, "direct@example.com")).toEqual([]);
  });

  it("the response is identical whether the address is new, already subscribed, pending or previously unsubscribed", async () => {
    const { form, api, topicId, workspaceId } = await setup();
    const subscribed = (await api.post("/v1/contacts", { email: "subscribed@example.com", topic_ids: [topicId] })).body
      .data.id;
    const unsubscribed = (await api.post("/v1/contacts", { email: "unsubscribed@example.com", topic_ids: [topicId] }))
      .body.data.id;
    await optOut(ctx, unsubscribed, topicId);
    await form.post("/v1/subscribe", { topic_id: topicId, email: "pending@example.com" });
    expect(subscribed).toBeTruthy();

    const answers = [];
    for (const email of [
      "new@example.com",
      "subscribed@example.com",
      "pending@example.com",
      "unsubscribed@example.com",
    ]) {
      const response = await form.post("/v1/subscribe", { topic_id: topicId, email });
      answers.push({ status: response.status, body: response.body });
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]).toEqual({ status: 200, body: { data: { status: "confirmation_sent" } } });

    // An already confirmed address is not re-mailed; an unsubscribed one is not resubscribed.
    expect(await requestsFor(workspaceId, "subscribed@example.com")).toEqual([]);
    expect(await requestsFor(workspaceId, "unsubscribed@example.com")).toEqual([]);
    expect(await subscriptionOf(topicId, "unsubscribed@example.com")).toMatchObject({ state: "unsubscribed" });
  });

  it("an unsubscribed address is not resubscribed on a topic without confirmation either, and nothing is changed, not even the name", async () => {
    const { form, api, topicId, workspaceId } = await setup({ requiresConfirmation: false });
    const id = (await api.post("/v1/contacts", { email: "left@example.com", first_name: "Orig", topic_ids: [topicId] }))
      .body.data.id;
    await optOut(ctx, id, topicId);
    const before = await eventsOf(workspaceId);
    const response = await form.post("/v1/subscribe", {
      topic_id: topicId,
      email: "left@example.com",
      first_name: "Changed",
    });
    expect(response.body).toEqual({ data: { status: "subscribed" } });
    expect(await subscriptionOf(topicId, "left@example.com")).toMatchObject({ state: "unsubscribed" });
    expect((await ctx.db.select().from(contacts).where(eq(contacts.id, id)))[0]!.firstName).toBe("Orig");
    expect(await eventsOf(workspaceId)).toEqual(before);
  });

  it("a contact that opted out of everything is not subscribed to any topic by the form", async () => {
    const { form, api, topicId } = await setup({ requiresConfirmation: false });
    const id = (await api.post("/v1/contacts", { email: "all@example.com" })).body.data.id;
    await optOut(ctx, id, "all");
    expect((await form.post("/v1/subscribe", { topic_id: topicId, email: "all@example.com" })).body).toEqual({
      data: { status: "subscribed" },
    });
    expect(await subscriptionOf(topicId, "all@example.com")).toBeUndefined();
  });

  it("a pending address that submits again gets another confirmation request (the mailer applies the de-duplication window)", async () => {
    const { form, topicId, workspaceId } = await setup();
    await form.post("/v1/subscribe", { topic_id: topicId, email: "twice@example.com" });
    await form.post("/v1/subscribe", { topic_id: topicId, email: "twice@example.com" });
    expect(await requestsFor(workspaceId, "twice@example.com")).toHaveLength(2);
    expect(await subscriptionOf(topicId, "twice@example.com")).toMatchObject({ state: "pending" });
  });

  it("a filled website (honeypot) is answered exactly like a genuine submission and the submission is dropped", async () => {
    const { form, topicId, workspaceId } = await setup();
    const genuine = await form.post("/v1/subscribe", { topic_id: topicId, email: "human@example.com" });
    const bot = await form.post("/v1/subscribe", {
      topic_id: topicId,
      email: "bot@example.com",
      website: "https://spam.example",
    });
    expect(bot.status).toBe(genuine.status);
    expect(bot.body).toEqual(genuine.body);
    expect(
      await ctx.db
        .select()
        .from(contacts)
        .where(and(eq(contacts.workspaceId, workspaceId), eq(contacts.email, "bot@example.com"))),
    ).toEqual([]);
    expect(await requestsFor(workspaceId, "bot@example.com")).toEqual([]);
  });

  it("an anonymous form fills blanks but never rewrites a known contact's name", async () => {
    const { form, api, topicId } = await setup();
    const id = (await api.post("/v1/contacts", { email: "known@example.com", first_name: "Real" })).body.data.id;
    await form.post("/v1/subscribe", {
      topic_id: topicId,
      email: "known@example.com",
      first_name: "Prank",
      last_name: "Filled",
    });
    const [row] = await ctx.db.select().from(contacts).where(eq(contacts.id, id));
    expect(row).toMatchObject({ firstName: "Real", lastName: "Filled" });
  });

  it("topic_not_found (404) for a missing, foreign or archived topic", async () => {
    const { form, workspaceId, brandId } = await setup();
    const other = await seedWorkspace(ctx);
    const foreign = await seedTopic(ctx, other.workspaceId, other.brandId);
    const archived = await seedTopic(ctx, workspaceId, brandId);
    await archiveTopic(ctx, systemActor("test", workspaceId), archived);
    for (const topicId of ["tp_01aaaaaaaaaaaaaaaaaaaaaaaa", foreign, archived]) {
      const response = await form.post("/v1/subscribe", { topic_id: topicId, email: "x@example.com" });
      expect(response.status).toBe(404);
      expect(response.body.error).toMatchObject({ type: "not_found_error", code: "topic_not_found" });
    }
  });

  it("topic_not_on_key_brand (400) when a brand-locked key names another brand's topic", async () => {
    const { workspaceId, brandId, topicId } = await setup();
    const { brandId: otherBrand } = await createBrand(ctx, systemActor("test", workspaceId), {
      name: "B2",
      legalName: "B2 Ltd",
      postalAddress: "3 Way",
      websiteUrl: "https://b2.test",
      senderEmail: "hi@b2.test",
    });
    const locked = apiClient((await seedKey(ctx, workspaceId, { kind: "publishable", brandId: otherBrand })).key);
    const response = await locked.post("/v1/subscribe", { topic_id: topicId, email: "x@example.com" });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({
      type: "invalid_request_error",
      code: "topic_not_on_key_brand",
      param: "topic_id",
    });
    expect(brandId).not.toBe(otherBrand);
  });

  it("email max 320 characters and valid; first_name and last_name 1 to 120 characters", async () => {
    const { form, topicId } = await setup();
    const cases: [Record<string, unknown>, string][] = [
      [{ topic_id: topicId }, "email"],
      [{ topic_id: topicId, email: "nope" }, "email"],
      [{ topic_id: topicId, email: `a@${"b".repeat(320)}.com` }, "email"],
      [{ topic_id: topicId, email: "a@example.com", first_name: "" }, "first_name"],
      [{ topic_id: topicId, email: "a@example.com", last_name: "x".repeat(121) }, "last_name"],
      [{ email: "a@example.com" }, "topic_id"],
      [{ topic_id: topicId, email: "a@example.com", referrer: "x" }, "referrer"],
    ];
    for (const [body, param] of cases) {
      const response = await form.post("/v1/subscribe", body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error).toMatchObject({ code: "validation_failed", param });
    }
    expect(
      (await form.post("/v1/subscribe", { topic_id: topicId, email: "a@example.com", first_name: "x".repeat(120) }))
        .status,
    ).toBe(200);
  });

  it("with a test key: the contact is written but no email is requested and no webhook fires", async () => {
    const { form, topicId, workspaceId } = await setup({ environment: "test" });
    expect((await form.post("/v1/subscribe", { topic_id: topicId, email: "t@example.com" })).body).toEqual({
      data: { status: "confirmation_sent" },
    });
    expect(await subscriptionOf(topicId, "t@example.com")).toMatchObject({ state: "pending" });
    expect(await requestsFor(workspaceId, "t@example.com")).toEqual([]);

    const direct = await setup({ requiresConfirmation: false, environment: "test" });
    await direct.form.post("/v1/subscribe", { topic_id: direct.topicId, email: "t@example.com" });
    expect(await subscriptionOf(direct.topicId, "t@example.com")).toMatchObject({ state: "subscribed" });
    expect(await eventsOf(direct.workspaceId)).toEqual([]);
  });

  it("a secret key may call subscribe too", async () => {
    const { api, topicId } = await setup();
    expect((await api.post("/v1/subscribe", { topic_id: topicId, email: "s@example.com" })).status).toBe(200);
  });

  it("a secret key from a browser (any Origin) is refused secret_key_in_browser, 403, with no CORS grant and nothing written", async () => {
    const { api, topicId, workspaceId } = await setup();
    const origin = { headers: { origin: "https://site.example" } };
    const response = await api.post("/v1/subscribe", { topic_id: topicId, email: "leak@example.com" }, origin);
    expect(response.status).toBe(403);
    expect(response.body.error).toMatchObject({
      type: "permission_error",
      code: "secret_key_in_browser",
      message: expect.stringContaining("publishable key"),
    });
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    expect(
      await ctx.db
        .select()
        .from(contacts)
        .where(and(eq(contacts.workspaceId, workspaceId), eq(contacts.email, "leak@example.com"))),
    ).toEqual([]);
    // Every /v1 route: a secret key is never usable in a browser. Sandboxed pages send the origin "null".
    expect((await api.get("/v1/contacts", origin)).body.error.code).toBe("secret_key_in_browser");
    expect(
      (await api.post("/v1/contacts", { email: "leak@example.com" }, { headers: { origin: "null" } })).body.error.code,
    ).toBe("secret_key_in_browser");
  });

  it("answers browsers: preflight and response echo an allowed Origin and allow Authorization, Content-Type", async () => {
    const { form, topicId } = await setup();
    const { OPTIONS } = await import("./route");
    const preflight = OPTIONS(
      new Request("http://localhost/v1/subscribe", {
        method: "OPTIONS",
        headers: { origin: "https://site.example", "access-control-request-method": "POST" },
      }),
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("https://site.example");
    expect(preflight.headers.get("access-control-allow-headers")).toBe("Authorization, Content-Type");
    expect(preflight.headers.get("access-control-allow-methods")).toContain("POST");
    const response = await form.post(
      "/v1/subscribe",
      { topic_id: topicId, email: "c@example.com" },
      { headers: { origin: "https://site.example" } },
    );
    expect(response.headers.get("access-control-allow-origin")).toBe("https://site.example");
    // Secret-key routes send no CORS headers.
    const { api } = await setup();
    expect(
      (await api.get("/v1/contacts", { headers: { origin: "https://site.example" } })).headers.get(
        "access-control-allow-origin",
      ),
    ).toBeNull();
  });
});

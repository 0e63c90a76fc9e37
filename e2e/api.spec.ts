import { expect, test } from "./fixtures";

// The /v1 API through the built server (Next.js routing, real HTTP).
test.describe.configure({ mode: "serial" });

let secret: string;
let publishable: string;
let topicId: string;
let listId: string;

test.beforeAll(async ({ seed }) => {
  const workspace = await seed.workspace("API Co", "api@example.com");
  const brand = await seed.brand(workspace, "API Co");
  topicId = await seed.topic(workspace, brand, "Updates");
  listId = await seed.list(workspace, brand, "Beta");
  secret = await seed.key(workspace, "secret");
  publishable = await seed.key(workspace, "publishable", { origins: ["https://shop.example"] });
});

test("a signup form on the sender's site subscribes through CORS with a publishable key", async ({ request }) => {
  const preflight = await request.fetch("/v1/subscribe", {
    method: "OPTIONS",
    headers: {
      origin: "https://shop.example",
      "access-control-request-method": "POST",
      "access-control-request-headers": "authorization,content-type",
    },
  });
  expect(preflight.status()).toBe(204);
  expect(preflight.headers()["access-control-allow-origin"]).toBe("https://shop.example");
  const response = await request.post("/v1/subscribe", {
    headers: { authorization: `Bearer ${publishable}`, origin: "https://shop.example" },
    data: { topic_id: topicId, email: "reader@example.com" },
  });
  expect(response.status()).toBe(200);
  expect(await response.json()).toEqual({ data: { status: "confirmation_sent" } });
  expect(response.headers()["access-control-allow-origin"]).toBe("https://shop.example");
  expect(response.headers()["ratelimit-limit"]).toBe("30");
});

test("contacts, list members and suppressions answer in the contract's shapes over HTTP", async ({ request }) => {
  const headers = { authorization: `Bearer ${secret}` };
  const created = await request.post("/v1/contacts", {
    headers,
    data: { email: "http@example.com", topic_ids: [topicId] },
  });
  expect(created.status()).toBe(201);
  const contactId = (await created.json()).data.id;
  const added = await request.post(`/v1/lists/${listId}/members`, { headers, data: { contact_ids: [contactId] } });
  expect(await added.json()).toEqual({ data: { added: 1, already_members: 0, member_count: 1 } });
  const removed = await request.delete(`/v1/lists/${listId}/members`, { headers, data: { contact_ids: [contactId] } });
  expect(await removed.json()).toEqual({ data: { removed: 1, member_count: 0 } });
  const page = await request.get("/v1/contacts?limit=1", { headers });
  expect((await page.json()).meta).toMatchObject({ limit: 1, has_more: true });
  const suppression = await request.post("/v1/suppressions", { headers, data: { domain: "blocked.example" } });
  expect(suppression.status()).toBe(201);
  const deleted = await request.delete(`/v1/suppressions/${(await suppression.json()).data.id}`, { headers });
  expect(deleted.status()).toBe(200);
});

test("errors over HTTP: missing key, publishable key off subscribe, unknown route", async ({ request }) => {
  const missing = await request.get("/v1/contacts");
  expect(missing.status()).toBe(401);
  expect((await missing.json()).error.code).toBe("missing_api_key");
  const publishableOnContacts = await request.get("/v1/contacts", {
    headers: { authorization: `Bearer ${publishable}`, origin: "https://shop.example" },
  });
  expect(publishableOnContacts.status()).toBe(403);
  expect((await publishableOnContacts.json()).error.code).toBe("publishable_key_not_allowed");
  const unknown = await request.get("/v1/campaigns", { headers: { authorization: `Bearer ${secret}` } });
  expect(unknown.status()).toBe(404);
  expect((await unknown.json()).error).toMatchObject({ type: "not_found_error", code: "route_not_found" });
});

test("reports over HTTP: the summary carries an ETag, and If-None-Match with it answers 304 with no body until the audience changes", async ({
  request,
}) => {
  const headers = { authorization: `Bearer ${secret}` };
  const first = await request.get("/v1/reports/summary", { headers });
  expect(first.status()).toBe(200);
  const body = await first.json();
  expect(body).toMatchObject({
    data: { contacts: expect.any(Object), scope: { type: "workspace", brand_id: null } },
    as_of: expect.any(String),
  });
  const etag = first.headers()["etag"]!;
  expect(etag).toBeTruthy();

  const again = await request.get("/v1/reports/summary", { headers: { ...headers, "if-none-match": etag } });
  expect(again.status()).toBe(304);
  expect(again.headers()["etag"]).toBe(etag);
  expect(again.headers()["cache-control"]).toBe("private, max-age=0, must-revalidate");
  expect(await again.body()).toHaveLength(0);

  await request.post("/v1/contacts", { headers, data: { email: "report.change@example.com" } });
  const changed = await request.get("/v1/reports/summary", { headers: { ...headers, "if-none-match": etag } });
  expect(changed.status()).toBe(200);
  expect((await changed.json()).data.contacts.total).toBe(body.data.contacts.total + 1);
  expect(changed.headers()["etag"]).not.toBe(etag);
});

test("the running app is ready: /api/ready answers 200 with every check ok, /api/health 200", async ({ request }) => {
  const ready = await request.get("/api/ready");
  expect(ready.status()).toBe(200);
  expect(await ready.json()).toEqual({ status: "ready", checks: { database: "ok", migrations: "ok", executor: "ok" } });
  expect((await request.get("/api/health")).status()).toBe(200);
});

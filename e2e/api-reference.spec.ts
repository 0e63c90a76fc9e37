import { expect, test } from "./fixtures";
import { inspectScreen } from "./inspect-screen";
import { screenshot } from "./screenshot";
import { signInAs } from "./sign-in-as";

// The API describes itself through the built server: the OpenAPI document, the reference page,
// and answers in the contract's shape for what Next.js alone would answer without a body.

test("the reference page at /docs/api lists every endpoint and webhook of GET /v1/openapi.json", async ({
  page,
  request,
}) => {
  const response = await request.get("/v1/openapi.json");
  expect(response.status()).toBe(200);
  const document = (await response.json()) as {
    paths: Record<string, Record<string, { operationId: string; summary: string }>>;
    webhooks: Record<string, unknown>;
  };
  await page.goto("/docs/api");
  await expect(page.getByRole("heading", { name: "API reference", level: 1 })).toBeVisible();
  let listed = 0;
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const section = page.locator(`section#${operation.operationId}`);
      await expect(section.getByRole("heading", { name: operation.summary, exact: true })).toBeVisible();
      await expect(section.getByText(path, { exact: true }).first()).toBeVisible();
      await expect(section.getByText(method, { exact: true }).first()).toBeVisible();
      listed++;
    }
  }
  expect(listed).toBe(16);
  for (const type of Object.keys(document.webhooks))
    await expect(page.getByRole("heading", { name: type, exact: true })).toBeVisible();
  await screenshot(page, "api-reference");
});

test("the reference page loads without a console error in both themes, and fits a phone's width", async ({
  context,
}) => {
  await inspectScreen(context, "/docs/api", "api-reference");
});

test("the API keys screen links to the reference", async ({ page, seed }) => {
  const owner = { email: "reference-owner@example.com", password: "reference owner pass" };
  const workspaceId = await seed.workspace("Reference Co", owner.email);
  await seed.user(owner.email, owner.password);
  await signInAs(page, owner);
  await page.goto(`/w/${workspaceId}/api-keys`);
  await expect(page.getByRole("link", { name: "API reference" })).toHaveAttribute("href", "/docs/api");
});

test("over real HTTP: 405 with Allow in the error shape, a GET with a body refused, a Request-Id on every answer", async ({
  request,
  seed,
}) => {
  const workspace = await seed.workspace("Methods Co", "methods@example.com");
  const secret = await seed.key(workspace, "secret");
  const headers = { authorization: `Bearer ${secret}` };
  const post = await request.post("/v1/topics", { headers, data: { name: "News" } });
  expect(post.status()).toBe(405);
  expect(post.headers()["allow"]).toBe("GET");
  expect(post.headers()["request-id"]).toMatch(/^req_/);
  expect(await post.json()).toMatchObject({ error: { type: "invalid_request_error", code: "method_not_allowed" } });
  const withBody = await request.fetch("/v1/topics", {
    method: "GET",
    headers: { ...headers, "content-type": "application/json" },
    data: '{"name":"News"}',
  });
  expect(withBody.status()).toBe(400);
  expect(await withBody.json()).toMatchObject({ error: { code: "validation_failed", param: "body" } });
  const unknown = await request.get("/v1/nowhere", { headers });
  expect(unknown.status()).toBe(404);
  expect(unknown.headers()["request-id"]).toMatch(/^req_/);
});

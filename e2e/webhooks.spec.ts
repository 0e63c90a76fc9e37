import { documentedVerifyWebhook, startWebhookReceiver } from "../lib/testing/webhook-receiver";
import { expect, test } from "./fixtures";
import { signInAs } from "./sign-in-as";

// Add an endpoint in the dashboard, receive a signed delivery on a real receiver, rotate the secret
// from the dashboard and receive the next delivery signed with the new one.
test.describe.configure({ mode: "serial" });

const owner = { email: "webhooks-owner@example.com", password: "webhooks owner pass" };
let workspace: string;
let topic: string;
let secretKey: string;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
const verify = documentedVerifyWebhook();

test.beforeAll(async ({ seed }) => {
  receiver = await startWebhookReceiver();
  workspace = await seed.workspace("Hooks Co", owner.email);
  await seed.user(owner.email, owner.password);
  const brand = await seed.brand(workspace, "Hooks Co");
  topic = await seed.topic(workspace, brand, "Releases", { confirmation: false });
  secretKey = await seed.key(workspace, "secret");
});
test.afterAll(() => receiver.close());

async function delivery(index: number) {
  await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBeGreaterThan(index);
  return receiver.received[index]!;
}

test("an endpoint added in the dashboard receives signed deliveries, and a secret rotated there signs the next one", async ({
  page,
  request,
}) => {
  await signInAs(page, owner);
  await page.goto(`/w/${workspace}/webhooks`);
  await page.getByLabel("Endpoint URL").fill(receiver.url);
  await page.getByLabel("contact.subscribed").check();
  await page.getByRole("button", { name: "Add endpoint" }).click();
  const firstSecret = (await page.getByTestId("signing-secret").textContent())!;
  expect(firstSecret).toMatch(/^whsec_/);

  const subscribe = (email: string) =>
    request.post("/v1/contacts", {
      headers: { authorization: `Bearer ${secretKey}` },
      data: { email, topic_ids: [topic] },
    });
  expect((await subscribe("first.hook@example.com")).status()).toBe(201);
  const first = await delivery(0);
  expect(first.body).toMatchObject({
    type: "contact.subscribed",
    data: { email: "first.hook@example.com", source: "api", topic_id: topic },
  });
  expect(verify(firstSecret, first.headers["x-service-signature"] as string, first.rawBody)).toBe(true);

  await page.reload();
  const endpoint = page.getByTestId("webhook-endpoint");
  await expect(endpoint).toContainText(receiver.url);
  await expect(endpoint.getByRole("row", { name: /contact\.subscribed/ })).toContainText("succeeded");

  await endpoint.getByRole("button", { name: "Rotate signing secret" }).click();
  const rotated = (await endpoint.getByTestId("signing-secret").textContent())!;
  expect(rotated).toMatch(/^whsec_/);
  expect(rotated).not.toBe(firstSecret);

  expect((await subscribe("second.hook@example.com")).status()).toBe(201);
  const second = await delivery(1);
  expect(second.body.data).toMatchObject({ email: "second.hook@example.com" });
  expect(verify(rotated, second.headers["x-service-signature"] as string, second.rawBody)).toBe(true);
  expect(verify(firstSecret, second.headers["x-service-signature"] as string, second.rawBody)).toBe(false);
});

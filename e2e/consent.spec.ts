import type { APIRequestContext, Page } from "@playwright/test";

import { expect, test } from "./fixtures";
import { screenshot } from "./screenshot";
import { signInAs } from "./sign-in-as";

// Subscribe through the API, confirm from the local mailbox, unsubscribe with one click and through the
// preference centre, and come back from a mail link: the whole consent life cycle in the built app.
test.describe.configure({ mode: "serial" });

const owner = { email: "consent-owner@example.com", password: "consent owner pass" };
const reader = "reader.consent@example.com";
let workspace: string;
let topic: string;
let secret: string;
let publishable: string;

test.beforeAll(async ({ seed }) => {
  workspace = await seed.workspace("Consent Co", owner.email);
  await seed.user(owner.email, owner.password);
  const brand = await seed.brand(workspace, "Consent Co", { postalAddress: "7 Opt-In Avenue, Springfield" });
  topic = await seed.topic(workspace, brand, "Weekly Digest");
  secret = await seed.key(workspace, "secret");
  publishable = await seed.key(workspace, "publishable");
});

/** Opens the local mailbox until a message with this subject has arrived (the workflows run in the background). */
async function openMail(page: Page, subject: RegExp) {
  const message = page.getByTestId("mailbox-message").filter({ has: page.getByRole("heading", { name: subject }) });
  await expect(async () => {
    await page.goto(`/w/${workspace}/mailbox`);
    await expect(message.first()).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  return message.first();
}

async function subscribedEmails(request: APIRequestContext): Promise<string[]> {
  const response = await request.get(`/v1/contacts?topic_id=${topic}`, {
    headers: { authorization: `Bearer ${secret}` },
  });
  return (await response.json()).data.map((c: { email: string }) => c.email);
}

test("subscribe through the API, then confirm from the mail in the local mailbox", async ({ page, request }) => {
  const response = await request.post("/v1/subscribe", {
    headers: { authorization: `Bearer ${publishable}` },
    data: { topic_id: topic, email: reader },
  });
  expect(await response.json()).toEqual({ data: { status: "confirmation_sent" } });
  expect(await subscribedEmails(request)).toEqual([]);

  await signInAs(page, owner);
  const mail = await openMail(page, /Confirm your subscription to Weekly Digest/);
  await expect(mail).toContainText(reader);
  await mail.getByRole("link", { name: /\/confirm\// }).click();
  await expect(page.getByRole("heading", { name: "You are subscribed" })).toBeVisible();
  await expect(page.getByText("7 Opt-In Avenue, Springfield")).toBeVisible();
  expect(await subscribedEmails(request)).toEqual([reader]);

  // A second visit (or a mail scanner) changes nothing.
  await page.reload();
  await expect(page.getByRole("heading", { name: "Already confirmed" })).toBeVisible();
});

test("one-click unsubscribe: a cookieless POST to the List-Unsubscribe URI", async ({ page, playwright, request }) => {
  await signInAs(page, owner);
  const mail = await openMail(page, /You're subscribed to Weekly Digest/);
  await mail.getByText("Headers").click();
  const header = await mail
    .locator("dt", { hasText: /^List-Unsubscribe$/ })
    .locator("xpath=following-sibling::dd")
    .textContent();
  const oneClick = header!.replace(/^<|>$/g, "");
  const cookieless = await playwright.request.newContext();
  const response = await cookieless.post(oneClick, { form: { "List-Unsubscribe": "One-Click" } });
  expect(response.status()).toBe(200);
  await cookieless.dispose();
  expect(await subscribedEmails(request)).toEqual([]);
});

test("resubscribe from the link in mail already sent, then leave through the preference centre", async ({
  page,
  request,
}) => {
  await signInAs(page, owner);
  const mail = await openMail(page, /You're subscribed to Weekly Digest/);
  await mail.getByRole("link", { name: /\/unsubscribe\// }).click();
  await expect(page.getByRole("heading", { name: "You are unsubscribed from Weekly Digest" })).toBeVisible();
  await page.getByRole("button", { name: "Resubscribe to Weekly Digest" }).click();
  await expect(page.getByRole("status")).toContainText("Welcome back");
  expect(await subscribedEmails(request)).toEqual([reader]);

  await page.getByRole("link", { name: /Choose which emails you get/ }).click();
  await expect(page.getByRole("heading", { name: "Emails from Consent Co" })).toBeVisible();
  const box = page.getByRole("checkbox", { name: /Weekly Digest/ });
  await expect(box).toBeChecked();
  await box.uncheck();
  await page.getByRole("button", { name: "Save choices" }).click();
  await expect(page.getByRole("status")).toHaveText("Your choices are saved.");
  expect(await subscribedEmails(request)).toEqual([]);

  await page.getByRole("button", { name: "Unsubscribe from everything" }).click();
  await expect(page.getByText("You have unsubscribed from everything")).toBeVisible();
  const contacts = await request.get("/v1/contacts?status=unsubscribed", {
    headers: { authorization: `Bearer ${secret}` },
  });
  expect((await contacts.json()).data.map((c: { email: string }) => c.email)).toEqual([reader]);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the unsubscribe page and the preference centre work as plain HTML forms", async ({ page, request, seed }) => {
    // The reader opted out of everything above; the welcome mail's link brings them back, scripts off.
    const messages = await seed.mailTo(reader);
    const welcome = messages.find((m) => m.subject.startsWith("You're subscribed"))!;
    await page.goto(welcome.links.find((link) => link.includes("/unsubscribe/"))!);
    await page.getByRole("button", { name: "Resubscribe to Weekly Digest" }).click();
    await expect(page.getByRole("status")).toContainText("Welcome back");
    expect(await subscribedEmails(request)).toEqual([reader]);

    await page.getByRole("button", { name: "Unsubscribe" }).click();
    await expect(page.getByRole("heading", { name: "You are unsubscribed from Weekly Digest" })).toBeVisible();
    expect(await subscribedEmails(request)).toEqual([]);

    await page.getByRole("link", { name: /Choose which emails you get/ }).click();
    await page.getByRole("checkbox", { name: /Weekly Digest/ }).check();
    await page.getByRole("button", { name: "Save choices" }).click();
    await expect(page.getByRole("status")).toHaveText("Your choices are saved.");
    expect(await subscribedEmails(request)).toEqual([reader]);
  });
});

test("the local mailbox's buttons report provider outcomes: a complaint suppresses the address for good", async ({
  page,
  request,
}) => {
  await signInAs(page, owner);
  const mail = await openMail(page, /You're subscribed to Weekly Digest/);
  await mail.getByRole("button", { name: "Complaint" }).click();
  await expect(page.getByRole("status")).toContainText("complained");
  const headers = { authorization: `Bearer ${secret}` };
  const suppressions = (await (await request.get("/v1/suppressions", { headers })).json()).data;
  expect(suppressions).toEqual([expect.objectContaining({ email: reader, reason: "complaint" })]);
  const contacts = (await (await request.get("/v1/contacts?status=complained", { headers })).json()).data;
  expect(contacts.map((c: { email: string }) => c.email)).toEqual([reader]);
  const removal = await request.delete(`/v1/suppressions/${suppressions[0].id}`, { headers });
  expect((await removal.json()).error.code).toBe("suppression_not_removable");
});

test("a bounce's evidence is on the contact page and the suppressions screen; lifting it asks why and keeps who did it", async ({
  page,
  request,
  seed,
}) => {
  const bouncer = "bouncer.consent@example.com";
  const response = await request.post("/v1/subscribe", {
    headers: { authorization: `Bearer ${publishable}` },
    data: { topic_id: topic, email: bouncer },
  });
  expect(response.status()).toBe(200);
  await expect(async () => expect(await seed.mailTo(bouncer)).toHaveLength(1)).toPass({ timeout: 20_000 });
  await signInAs(page, owner);
  await page.goto(`/w/${workspace}/mailbox`);
  const message = page.getByTestId("mailbox-message").filter({ hasText: bouncer }).first();
  await message.getByRole("button", { name: "Bounce (permanent)" }).click();
  await expect(page.getByRole("status")).toContainText("bounce");

  await page.goto(`/w/${workspace}/suppressions`);
  const row = page.getByRole("row", { name: new RegExp(bouncer) });
  await row.getByText(/^Test mailbox · /).click();
  await expect(row.locator("pre")).toContainText('"type":"bounced"');

  const bounced = (
    await (await request.get("/v1/contacts?status=bounced", { headers: { authorization: `Bearer ${secret}` } })).json()
  ).data as { id: string; email: string }[];
  await page.goto(`/w/${workspace}/contacts/${bounced.find((contact) => contact.email === bouncer)!.id}`);
  const card = page.getByRole("heading", { name: "Suppression" }).locator("xpath=ancestor::*[@data-slot='card']");
  await expect(card).toContainText("Bounce");
  await card.getByRole("button", { name: "Lift" }).click();
  await page.getByRole("dialog").getByLabel("Why lift it?").fill("Their mailbox works again");
  await page.getByRole("dialog").getByRole("button", { name: "Lift suppression" }).click();
  await expect(card).toContainText(`Bounce suppression lifted`);
  await expect(card).toContainText(`by ${owner.email}: “Their mailbox works again”`);
  await screenshot(page, "contact-suppression-lifted");
});

import type { Page } from "@playwright/test";

import { expect, test } from "./fixtures";
import { screenshot } from "./screenshot";
import { signInAs } from "./sign-in-as";

// The owner of the first-run page (sign-in.spec) sets up a working integration from the dashboard alone:
// brand, topic, a publishable and a secret key, then a signup through the API with the new key.
test.describe.configure({ mode: "serial" });

const owner = { email: "owner@example.com", password: "correct horse battery" };
const shopOrigin = "https://shop.example";
let workspaceId: string;
let topicId: string;
let publishableKey: string;
let secretKey: string;
// One signed-in page for the whole file: sign-in attempts are limited per account (10 per 15 minutes).
let page: Page;

test.beforeAll(async ({ browser }) => {
  page = await browser.newPage();
  await signInAs(page, owner);
});
test.afterAll(() => page.close());

test("the overview tells a new workspace what to do next", async () => {
  await page.goto("/");
  workspaceId = /\/w\/(ws_[0-9a-z]+)$/.exec(page.url())![1]!;
  const checklist = page.getByRole("list", { name: "Setup checklist" });
  await expect(checklist.getByRole("listitem")).toHaveCount(6);
  await expect(checklist.getByRole("link", { name: "Add a brand" })).toBeVisible();
  await screenshot(page, "overview");
});

test("brands: bad input shows the error next to the field and creates nothing; a good one is created in review", async () => {
  await page.getByRole("navigation", { name: "Workspace" }).getByRole("link", { name: "Brands" }).click();
  await expect(page.getByRole("heading", { name: "Add your first brand" })).toBeVisible();
  await screenshot(page, "brands-empty");
  await page.getByRole("button", { name: "New brand" }).click();
  const dialog = page.getByRole("dialog", { name: "New brand" });
  await dialog.getByLabel("Name", { exact: true }).fill("Acme");
  await dialog.getByLabel("Legal name").fill("Acme Newsletters Ltd");
  await dialog.getByLabel("Postal address").fill("1 Market Street, Springfield");
  await dialog.getByLabel("Sender address").fill("not an address");
  await dialog.getByLabel("Website").fill("https://acme.example");
  await dialog.getByRole("button", { name: "Create brand" }).click();
  await expect(dialog.getByLabel("Sender address")).toHaveAttribute("aria-invalid", "true");
  await expect(dialog.getByText("Must be a valid email address")).toBeVisible();
  await screenshot(page, "brands-create-error");
  await dialog.getByLabel("Sender address").fill("news@acme.example");
  await dialog.getByRole("button", { name: "Create brand" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Acme" })).toBeVisible();
  await expect(page.getByText("In review", { exact: true })).toBeVisible();
  await page.getByRole("link", { name: "Brands" }).first().click();
  await expect(page.getByRole("row")).toHaveCount(2);
  await screenshot(page, "brands");
});

test("brands: an identity edit says it returns the brand to review before saving; a cosmetic edit says it does not", async () => {
  await page.goto(`/w/${workspaceId}/brands`);
  await page.getByRole("link", { name: "Acme" }).click();
  const legalName = page.getByLabel("Legal name");
  await legalName.fill("Acme Holdings Ltd");
  await expect(page.getByText("Saving returns this brand to review")).toBeVisible();
  await screenshot(page, "brand-edit-identity");
  await legalName.fill("Acme Newsletters Ltd");
  await expect(page.getByText("Saving returns this brand to review")).toHaveCount(0);
  await page.getByLabel("Colour").fill("blue");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Must be a colour like #1a2b3c")).toBeVisible();
  await page.getByLabel("Colour").fill("#1a2b3c");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Saved. Review and sending are unaffected.")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Colour")).toHaveValue("#1a2b3c");
});

test("topics: turning confirmation off asks for the consent assertion; the topic is listed with its id", async () => {
  await page.goto(`/w/${workspaceId}/topics`);
  await page.getByRole("button", { name: "New topic" }).click();
  const dialog = page.getByRole("dialog", { name: "New topic" });
  await dialog.getByLabel("Name", { exact: true }).fill("Weekly Digest");
  await dialog.getByLabel("Ask new subscribers to confirm").uncheck();
  await dialog.getByRole("button", { name: "Create topic" }).click();
  await expect(
    dialog.getByText("Confirm that you hold consent from everyone you will add without confirmation"),
  ).toBeVisible();
  await screenshot(page, "topics-consent-assertion");
  await dialog.getByLabel("Ask new subscribers to confirm").check();
  await dialog.getByRole("button", { name: "Create topic" }).click();
  const row = page.getByRole("row", { name: /Weekly Digest/ });
  await expect(row).toContainText("Double opt-in");
  topicId = (await row.getByText(/^tp_/).textContent())!;
  await screenshot(page, "topics");
});

test("API keys: each key is shown once; the publishable key subscribes from its origin, and a revoked secret key stops at once", async ({
  request,
}) => {
  await page.goto(`/w/${workspaceId}/api-keys`);
  await page.getByRole("button", { name: "New API key" }).click();
  let dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name").fill("Website signup form");
  await dialog.getByLabel("Allowed origins").fill("not a url");
  await dialog.getByRole("button", { name: "Create key" }).click();
  await expect(dialog.getByRole("alert").first()).toBeVisible();
  await dialog.getByLabel("Allowed origins").fill(shopOrigin);
  await dialog.getByRole("button", { name: "Create key" }).click();
  publishableKey = (await dialog.getByTestId("new-api-key").textContent())!;
  expect(publishableKey).toMatch(/^pk_live_/);
  await dialog.getByRole("button", { name: "Done" }).click();

  await page.getByRole("button", { name: "New API key" }).click();
  dialog = page.getByRole("dialog");
  await dialog.getByLabel("Type").selectOption("secret");
  await dialog.getByRole("button", { name: "Create key" }).click();
  secretKey = (await dialog.getByTestId("new-api-key").textContent())!;
  expect(secretKey).toMatch(/^sk_live_/);
  await expect(dialog.getByText("Keep it on your servers")).toBeVisible();
  await screenshot(page, "api-key-created");
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(page.getByRole("row")).toHaveCount(3);
  await screenshot(page, "api-keys");

  const subscribe = await request.post("/v1/subscribe", {
    headers: { authorization: `Bearer ${publishableKey}`, origin: shopOrigin },
    data: { topic_id: topicId, email: "reader@shop.example" },
  });
  expect(await subscribe.json()).toEqual({ data: { status: "confirmation_sent" } });
  expect((await request.get("/v1/topics", { headers: { authorization: `Bearer ${secretKey}` } })).status()).toBe(200);

  const secretRow = page.getByRole("row", { name: new RegExp(`sk_live_…${secretKey.slice(-4)}`) });
  await secretRow.getByRole("button", { name: "Revoke" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Revoke key" }).click();
  await expect(secretRow).toContainText("revoked");
  expect((await request.get("/v1/topics", { headers: { authorization: `Bearer ${secretKey}` } })).status()).toBe(401);
});

test("the confirmation mail of the dashboard-made topic reaches the test mailbox", async () => {
  await expect(async () => {
    await page.goto(`/w/${workspaceId}/mailbox`);
    await expect(page.getByTestId("mailbox-message").filter({ hasText: "reader@shop.example" }).first()).toBeVisible({
      timeout: 1000,
    });
  }).toPass({ timeout: 20_000 });
});

test("contacts: the confirmed signup shows its consent evidence; an opted-out address cannot be added back", async () => {
  const confirmation = page
    .getByTestId("mailbox-message")
    .filter({ hasText: "reader@shop.example" })
    .filter({ has: page.getByRole("heading", { name: /Confirm/ }) });
  await page.goto(`/w/${workspaceId}/mailbox`);
  await confirmation
    .first()
    .getByRole("link", { name: /\/confirm\// })
    .click();
  await expect(page.getByRole("heading", { name: "You are subscribed" })).toBeVisible();

  await page.goto(`/w/${workspaceId}/contacts?q=reader`);
  await expect(page.getByRole("row")).toHaveCount(2);
  await screenshot(page, "contacts");
  await page.getByRole("link", { name: "reader@shop.example" }).click();
  const consent = page.getByRole("row", { name: /Weekly Digest/ });
  await expect(consent).toContainText("subscribed");
  await expect(consent).toContainText("Confirmed by email (double opt-in)");
  await expect(consent).toContainText(/IP \S+/);
  await expect(page.getByRole("list", { name: "Timeline" })).toContainText("contact.subscribed");
  await screenshot(page, "contact");

  // The person opts out of everything from the preference centre of their welcome mail.
  const welcome = page
    .getByTestId("mailbox-message")
    .filter({ hasText: "reader@shop.example" })
    .filter({ has: page.getByRole("heading", { name: /subscribed to Weekly Digest/ }) });
  await expect(async () => {
    await page.goto(`/w/${workspaceId}/mailbox`);
    await expect(welcome.first()).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await welcome
    .first()
    .getByRole("link", { name: /\/unsubscribe\// })
    .click();
  await page.getByRole("link", { name: /Choose which emails you get/ }).click();
  await page.getByRole("button", { name: "Unsubscribe from everything" }).click();
  await expect(page.getByText("You have unsubscribed from everything")).toBeVisible();

  await page.goto(`/w/${workspaceId}/contacts`);
  await page.getByRole("button", { name: "Add contact" }).click();
  const dialog = page.getByRole("dialog", { name: "Add a contact" });
  await dialog.getByLabel("Email").fill("reader@shop.example");
  await dialog.getByLabel("First name").fill("Renamed");
  await dialog.getByLabel("Weekly Digest").check();
  await dialog.getByRole("button", { name: "Add contact" }).click();
  await expect(dialog.getByText("Confirm that this person gave you consent for the topics you ticked")).toBeVisible();
  await dialog.getByLabel("This person gave me their consent").check();
  await dialog.getByRole("button", { name: "Add contact" }).click();
  await expect(dialog.getByText("This address opted out.", { exact: false })).toBeVisible();
  await page.keyboard.press("Escape");
  await page.getByRole("link", { name: "reader@shop.example" }).click();
  await expect(page.getByText("Renamed")).toHaveCount(0);

  await page.goto(`/w/${workspaceId}/contacts`);
  await page.getByRole("button", { name: "Add contact" }).click();
  await dialog.getByLabel("Email").fill("walk-in@shop.example");
  await dialog.getByLabel("Weekly Digest").check();
  await dialog.getByLabel("This person gave me their consent").check();
  await dialog.getByRole("button", { name: "Add contact" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "walk-in@shop.example" })).toBeVisible();
  await expect(page.getByRole("row", { name: /Weekly Digest/ })).toContainText(
    /Added in the dashboard by .+, consent asserted/,
  );
});

test("lists: create, rename, see members, delete without unsubscribing anyone", async () => {
  await page.goto(`/w/${workspaceId}/lists`);
  await page.getByRole("button", { name: "New list" }).click();
  const create = page.getByRole("dialog", { name: "New list" });
  await create.getByRole("button", { name: "Create list" }).click();
  await expect(create.getByText("Must not be empty")).toBeVisible();
  await create.getByLabel("Name").fill("Customers");
  await create.getByRole("button", { name: "Create list" }).click();
  await page.getByRole("button", { name: "Rename Customers" }).click();
  const rename = page.getByRole("dialog", { name: "Rename Customers" });
  await rename.getByLabel("Name").fill("Paying customers");
  await rename.getByRole("button", { name: "Save list" }).click();
  await page.getByRole("link", { name: "Paying customers" }).click();
  await expect(page.getByRole("heading", { name: "No members yet" })).toBeVisible();
  const listUrl = page.url();

  // From a contact's page: correct the name, set the time zone, put them on the list.
  await page.goto(`/w/${workspaceId}/contacts?q=walk-in`);
  await page.getByRole("link", { name: "walk-in@shop.example" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "walk-in@shop.example" })).toBeVisible();
  const contactUrl = page.url();
  await page.getByRole("button", { name: "Edit contact" }).click();
  await page.getByRole("dialog").getByLabel("First name").fill("Walter");
  // A time zone is an IANA name: anything else is refused beside the field.
  await page.getByRole("dialog").getByLabel("Time zone").fill("Berlin time");
  await page.getByRole("dialog").getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("dialog").getByLabel("Time zone")).toHaveAttribute("aria-invalid", "true");
  await page.getByRole("dialog").getByLabel("Time zone").fill("europe/berlin");
  await page.getByRole("dialog").getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Walter", { exact: true }).first()).toBeVisible();
  await expect(page.getByTestId("contact-time-zone")).toHaveText("Europe/Berlin");
  await page.getByLabel("Add to list").selectOption({ label: "Paying customers" });
  await page.getByRole("button", { name: "Add", exact: true }).click();
  await expect(page.getByRole("list", { name: "Lists of this contact" })).toContainText("Paying customers");

  await page.goto(listUrl);
  await expect(page.getByRole("row", { name: /walk-in@shop.example/ })).toContainText("Walter");
  await screenshot(page, "list");
  // The address opens the contact; the row's button takes them off the list and nothing else.
  await page.getByRole("link", { name: "walk-in@shop.example" }).click();
  await expect(page).toHaveURL(contactUrl);
  await page.goto(listUrl);
  await page.getByRole("button", { name: "Remove walk-in@shop.example from Paying customers" }).click();
  await expect(page.getByRole("heading", { name: "No members yet" })).toBeVisible();
  await page.goto(contactUrl);
  await expect(page.getByText("Not on any list.")).toBeVisible();
  await expect(page.getByRole("row", { name: /Weekly Digest/ })).toContainText("subscribed");
  // Back on the list, which is then deleted.
  await page.getByLabel("Add to list").selectOption({ label: "Paying customers" });
  await page.getByRole("button", { name: "Add", exact: true }).click();
  await expect(page.getByRole("list", { name: "Lists of this contact" })).toContainText("Paying customers");
  await page.goto(listUrl);
  await page.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByRole("alertdialog")).toContainText("Nobody is unsubscribed");
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete list" }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${workspaceId}/lists$`));
  await expect(page.getByRole("heading", { name: "Create your first list" })).toBeVisible();
  await page.goto(contactUrl);
  await expect(page.getByText("Not on any list.")).toBeVisible();
  await expect(page.getByRole("row", { name: /Weekly Digest/ })).toContainText("subscribed");
});

test("custom attributes: a bad key is refused next to the field; a defined one shows its merge tag", async () => {
  await page.goto(`/w/${workspaceId}/attributes`);
  await page.getByRole("button", { name: "New attribute" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Key").fill("Plan Name");
  await dialog.getByRole("button", { name: "Define attribute" }).click();
  await expect(dialog.getByText(/Must be lower-case letters/)).toBeVisible();
  await dialog.getByLabel("Key").fill("plan");
  await dialog.getByLabel("Type").selectOption("string");
  await dialog.getByRole("button", { name: "Define attribute" }).click();
  await expect(page.getByRole("row", { name: /plan/ })).toContainText("{{contact.plan}}");
  await screenshot(page, "attributes");
});

test("suppressions: add an address and a domain, lift the address with a reason", async () => {
  await page.goto(`/w/${workspaceId}/suppressions`);
  await page.getByRole("button", { name: "Add suppression" }).click();
  let dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: "Suppress" }).click();
  await expect(dialog.getByRole("alert").first()).toContainText("Give one of `email` or `domain`.");
  await dialog.getByLabel("Email address").fill("blocked@example.net");
  await dialog.getByLabel("Note").fill("Asked by phone");
  await dialog.getByRole("button", { name: "Suppress" }).click();
  await page.getByRole("button", { name: "Add suppression" }).click();
  dialog = page.getByRole("dialog");
  await dialog.getByLabel("Or a whole domain").fill("competitor.example");
  await dialog.getByRole("button", { name: "Suppress" }).click();
  await expect(page.getByRole("row")).toHaveCount(3);
  await screenshot(page, "suppressions");
  await page
    .getByRole("row", { name: /blocked@example.net/ })
    .getByRole("button", { name: "Lift" })
    .click();
  dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: "Lift suppression" }).click();
  await expect(dialog.getByText("Say why, for whoever reads this later")).toBeVisible();
  await dialog.getByLabel("Why lift it?").fill("They asked by phone to get mail again");
  await dialog.getByRole("button", { name: "Lift suppression" }).click();
  await expect(page.getByRole("row")).toHaveCount(2);
});

test("members: an invited teammate sets a password from the mailed link and signs in", async ({ browser }) => {
  await page.goto(`/w/${workspaceId}/members`);
  await page.getByRole("button", { name: "Invite member" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Email").fill("teammate@example.com");
  await dialog.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByRole("row", { name: /teammate@example.com/ })).toContainText("Invited");
  await screenshot(page, "members");
  // The invitation is the service's own mail: with the local transport the owners and admins who invite read it in the test mailbox, marked as such.
  await page.goto(`/w/${workspaceId}/mailbox`);
  const invitation = page.getByTestId("mailbox-message").filter({ hasText: "teammate@example.com" });
  await expect(invitation).toContainText("From the service · Invitation");
  await expect(invitation.getByRole("button", { name: "Delivered" })).toHaveCount(0);
  const link = (await invitation
    .getByRole("link", { name: /\/invite\// })
    .first()
    .getAttribute("href"))!;

  const teammate = await browser.newPage();
  try {
    await teammate.goto(link);
    await expect(teammate.getByRole("heading", { name: /Join / })).toBeVisible();
    await screenshot(teammate, "invitation");
    await teammate.getByLabel(/Password/).fill("teammate password");
    await teammate.getByRole("button", { name: "Set password" }).click();
    await signInAs(teammate, { email: "teammate@example.com", password: "teammate password" });
    await expect(teammate).toHaveURL(new RegExp(`/w/${workspaceId}$`));
  } finally {
    await teammate.close();
  }
  await page.goto(`/w/${workspaceId}/members`);
  await expect(page.getByRole("row", { name: /teammate@example.com/ })).toContainText("Active");
});

test("another workspace's screens are not found, and a crafted action naming it changes nothing there", async ({
  request,
  seed,
}) => {
  const other = await seed.workspace("Not Yours Ltd", "not-yours@example.com");
  const otherBrand = await seed.brand(other, "Not Yours");
  const otherKey = await seed.key(other, "secret");
  for (const screen of ["", "/brands", "/topics", "/api-keys", `/brands/${otherBrand}`]) {
    const response = await page.goto(`/w/${other}${screen}`);
    expect(response?.status(), screen).toBe(404);
  }
  // Inside our own workspace another workspace's object is not found either (the page has streamed by then, so the status stays 200).
  await page.goto(`/w/${workspaceId}/brands/${otherBrand}`);
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
  await expect(page.getByText("Not Yours")).toHaveCount(0);

  // The topic form of our workspace, posted with the other workspace's id.
  await page.goto(`/w/${workspaceId}/topics`);
  await page.route(`**/w/${workspaceId}/topics`, async (route) => {
    const body = route.request().postData();
    if (route.request().method() !== "POST" || !body) return route.continue();
    await route.continue({ postData: body.replaceAll(workspaceId, other) });
  });
  await page.getByRole("button", { name: "New topic" }).click();
  const dialog = page.getByRole("dialog", { name: "New topic" });
  await dialog.getByLabel("Name", { exact: true }).fill("Planted");
  await dialog.getByRole("button", { name: "Create topic" }).click();
  await expect(dialog.getByText("This workspace does not exist, or you are not a member of it.")).toBeVisible();
  const topics = await request.get("/v1/topics", { headers: { authorization: `Bearer ${otherKey}` } });
  expect((await topics.json()).data).toEqual([]);
});

import { readFile } from "node:fs/promises";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";

import { startDnsServer } from "@/lib/testing/dns-server";

import { E2E_DNS_PORT } from "../playwright.config";
import { startFreshInstallation, type FreshInstallation } from "./fresh-installation";
import { inspectScreen } from "./inspect-screen";

// The first campaign, as a new sender walks to it on a fresh installation with nothing but the browser:
// the first-run page, a brand, its sending domain checked against a DNS server, a topic, a list, an
// attribute, keys, a signup form used on its hosted page and confirmed from the test mailbox, a CSV
// import with a dry run, a campaign written in the block editor, a test, the exclusion preview, a send
// in the sandbox that reaches the owner's own address and says why it reached no one else, the review
// passed by the owner as the installation's operator, and the campaign's successor reaching everyone.
// Every screen on the way is loaded in both themes at desktop and phone width without an error or a
// page wider than the window.
test.describe.configure({ mode: "serial" });

const owner = { email: "Owner@Northwind.test", password: "a first-run password", workspace: "Northwind Coffee" };
const ownerAddress = owner.email.toLowerCase();
const PORT = E2E_DNS_PORT + 10;
const DNS_PORT = E2E_DNS_PORT + 11;
// The imported readers: none of them a verified address of the workspace.
const readers = Array.from({ length: 24 }, (_, i) => ({
  email: `reader${i + 1}@customers.test`,
  firstName: `Reader${i + 1}`,
  city: i % 2 ? "Lyon" : "Porto",
}));

let app: FreshInstallation;
let dns: Awaited<ReturnType<typeof startDnsServer>>;
let context: BrowserContext;
let page: Page;
let workspacePath = "";

test.beforeAll(async ({ browser }) => {
  test.setTimeout(240_000);
  dns = await startDnsServer(DNS_PORT);
  app = await startFreshInstallation({ port: PORT, dnsPort: DNS_PORT });
  context = await browser.newContext({ baseURL: app.url });
  page = await context.newPage();
});

test.afterAll(async () => {
  await context?.close();
  await app?.stop();
  await dns?.close();
});

/** Every screen the journey reaches is also looked at in both themes, at desktop and phone width. */
async function looked(name: string): Promise<void> {
  await inspectScreen(context, new URL(page.url()).pathname + new URL(page.url()).search, name);
}

async function nav(name: string): Promise<void> {
  const navigation = page.getByRole("navigation", { name: "Workspace" });
  if (!(await navigation.isVisible())) await page.getByRole("button", { name: "Open the menu" }).click();
  const link = navigation.getByRole("link", { name, exact: true });
  const href = (await link.getAttribute("href"))!;
  await link.click();
  // The screen is looked at by its address: wait until the browser is there.
  await page.waitForURL((url) => url.pathname === href);
}

/** The newest message to an address in the dashboard's Test mailbox, waited for. */
async function mailboxMessage(to: string, subject: RegExp) {
  const message = page
    .getByTestId("mailbox-message")
    .filter({ hasText: to })
    .filter({ has: page.getByRole("heading", { name: subject }) });
  await expect(async () => {
    await page.goto(`${workspacePath}/mailbox`);
    await expect(message.first()).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 60_000 });
  return message.first();
}

test("first run: the owner makes the installation's account, lands on sign-in with the address filled in, and signs in", async () => {
  test.setTimeout(120_000);
  await page.goto("/");
  await expect(page).toHaveURL(/\/setup$/);
  await looked("setup");
  await page.getByLabel("Workspace name").fill(owner.workspace);
  await page.getByLabel("Email").fill(owner.email);
  await page.getByLabel(/Password/).fill(owner.password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("Your account is ready")).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveValue(ownerAddress);
  await page.getByLabel("Password").fill(owner.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: owner.workspace })).toBeVisible();
  workspacePath = new URL(page.url()).pathname;
  await expect(page.getByRole("list", { name: "Setup checklist" })).toBeVisible();
  await looked("overview");
});

test("brand: a free-mail sender is refused next to its field; the brand is made with its sender on the domain it will verify", async () => {
  test.setTimeout(120_000);
  await nav("Brands");
  await expect(page.getByRole("heading", { name: "Add your first brand" })).toBeVisible();
  await looked("brands-empty");
  await page.getByRole("button", { name: "New brand" }).click();
  const dialog = page.getByRole("dialog", { name: "New brand" });
  await dialog.getByLabel("Name", { exact: true }).fill("Northwind Coffee");
  await dialog.getByLabel("Legal name").fill("Northwind Coffee Ltd");
  await dialog.getByLabel("Postal address").fill("12 Harbour Road, Portsmouth");
  await dialog.getByLabel(/Website/).fill("https://northwind.test");
  await dialog.getByLabel("Sender address").fill("northwind.coffee@gmail.com");
  await dialog.getByRole("button", { name: "Create brand" }).click();
  await expect(dialog.getByLabel("Sender address")).toHaveAttribute("aria-invalid", "true");
  await dialog.getByLabel("Sender address").fill("news@mail.northwind.test");
  await dialog.getByRole("button", { name: "Create brand" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Northwind Coffee" })).toBeVisible();
  await looked("brand");
});

test("sending domain: its records are published on a DNS server and checked until the domain is ready", async () => {
  test.setTimeout(120_000);
  await nav("Domains");
  await page.getByRole("button", { name: "Add domain" }).first().click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Domain").fill("mail.northwind.test");
  await dialog.getByRole("button", { name: "Add domain" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "mail.northwind.test" })).toBeVisible();
  await looked("domain-waiting");
  const rows = page.getByRole("row").filter({ has: page.getByText(/^(Missing|Found|Wrong value)$/) });
  await expect(rows.first()).toBeVisible();
  const records = await rows.evaluateAll((elements) =>
    elements.map((row) => {
      const codes = row.querySelectorAll("code");
      return { name: codes[0]!.textContent!, value: codes[1]!.textContent! };
    }),
  );
  for (const record of records) dns.set(record.name, [{ type: "TXT", data: [record.value] }]);
  await page.getByRole("button", { name: "Check DNS now" }).click();
  await expect(page.getByText("Ready", { exact: true }).first()).toBeVisible();
  await looked("domain-ready");
});

test("topic, list and attribute: made from their screens", async () => {
  test.setTimeout(120_000);
  await nav("Topics");
  await page.getByRole("button", { name: "New topic" }).click();
  const topic = page.getByRole("dialog", { name: "New topic" });
  await topic.getByLabel("Name", { exact: true }).fill("Coffee Letters");
  await topic.getByRole("button", { name: "Create topic" }).click();
  await expect(page.getByRole("row", { name: /Coffee Letters/ })).toContainText("Double opt-in");
  await looked("topics");

  await nav("Lists");
  await page.getByRole("button", { name: "New list" }).click();
  const list = page.getByRole("dialog", { name: "New list" });
  await list.getByLabel("Name").fill("Wholesale");
  await list.getByRole("button", { name: "Create list" }).click();
  await expect(page.getByRole("link", { name: "Wholesale" })).toBeVisible();
  await looked("lists");

  await nav("Custom attributes");
  await page.getByRole("button", { name: "New attribute" }).click();
  const attribute = page.getByRole("dialog");
  await attribute.getByLabel("Key").fill("city");
  await attribute.getByLabel("Type").selectOption("string");
  await attribute.getByRole("button", { name: "Define attribute" }).click();
  await expect(page.getByRole("row", { name: /city/ })).toBeVisible();
  await looked("attributes");
});

test("keys: a publishable key for the site and a secret key for the server, each shown once", async () => {
  test.setTimeout(120_000);
  await nav("API keys");
  await page.getByRole("button", { name: "New API key" }).click();
  let dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name").fill("Website");
  await dialog.getByLabel("Allowed origins").fill("https://northwind.test");
  await dialog.getByRole("button", { name: "Create key" }).click();
  await expect(dialog.getByTestId("new-api-key")).toHaveText(/^pk_live_/);
  await dialog.getByRole("button", { name: "Done" }).click();
  await page.getByRole("button", { name: "New API key" }).click();
  dialog = page.getByRole("dialog");
  await dialog.getByLabel("Type").selectOption("secret");
  await dialog.getByRole("button", { name: "Create key" }).click();
  await expect(dialog.getByTestId("new-api-key")).toHaveText(/^sk_live_/);
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(page.getByRole("row")).toHaveCount(3);
  await looked("api-keys");
});

test("signup form: built with a preview, signed up to on its hosted page by the owner, confirmed from the test mailbox", async () => {
  test.setTimeout(180_000);
  await nav("Signup forms");
  await page.getByRole("link", { name: "New form" }).first().click();
  await page.getByLabel("Name", { exact: true }).fill("Shop footer");
  await page.getByLabel("Title").fill("Coffee letters from Northwind");
  await page.getByLabel("First name").selectOption("optional");
  await expect(
    page.frameLocator('iframe[title="Form preview"]').getByRole("heading", { name: "Coffee letters from Northwind" }),
  ).toBeVisible();
  await page.getByRole("button", { name: "Create form" }).click();
  await expect(page.getByRole("heading", { name: "Shop footer" })).toBeVisible();
  await expect(
    page.frameLocator('iframe[title="Form preview"]').getByRole("heading", { name: "Coffee letters from Northwind" }),
  ).toBeVisible();
  await looked("form");
  await page.getByRole("tab", { name: "Hosted page" }).click();
  const hosted = (await page.getByTestId("embed-hosted").textContent())!;

  const visitor = await context.newPage();
  await visitor.goto(hosted);
  await expect(visitor.getByText("Northwind Coffee").first()).toBeVisible();
  await visitor.getByLabel("Email").fill(ownerAddress);
  await visitor.getByLabel(/First name/).fill("Olivia");
  await visitor.getByRole("button", { name: "Subscribe" }).click();
  await expect(visitor.getByRole("status")).toHaveText(/check your inbox/);
  await visitor.close();

  const mail = await mailboxMessage(ownerAddress, /Confirm/);
  await looked("mailbox");
  await mail.getByRole("link", { name: /\/confirm\// }).click();
  await expect(page.getByRole("heading", { name: "You are subscribed" })).toBeVisible();
  await page.goto(workspacePath);
});

test("import: a CSV of readers mapped, checked in a dry run, then applied to the topic and the list", async () => {
  test.setTimeout(180_000);
  const csv = [
    "Email,First name,City",
    ...readers.map((reader) => `${reader.email},${reader.firstName},${reader.city}`),
    "not-an-address,Nobody,Nowhere",
  ].join("\n");
  await nav("Contacts");
  await page.getByRole("link", { name: "Import a file" }).click();
  await page
    .getByLabel("CSV file")
    .setInputFiles({ name: "customers.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await expect(page.getByRole("heading", { name: "customers.csv" })).toBeVisible();
  await expect(page.getByLabel("Field for column Email")).toHaveValue("email");
  await expect(page.getByLabel("Field for column City")).toHaveValue("attributes.city");
  await page.getByLabel("Coffee Letters").check();
  await page.getByLabel("Add everyone to a list").selectOption({ label: "Wholesale" });
  await page.getByLabel("Everyone in this file agreed to receive these topics").check();
  await page.getByRole("button", { name: "Check the file" }).click();
  const dryRun = page.getByLabel("What the dry run found");
  await expect(dryRun.getByTestId("count-created")).toHaveText(String(readers.length));
  await expect(dryRun.getByTestId("count-refused")).toHaveText("1");
  await looked("import-dry-run");
  await page.getByRole("button", { name: `Import ${readers.length} contacts` }).click();
  await expect(page.getByRole("heading", { name: "Imported", exact: true })).toBeVisible({ timeout: 60_000 });
  await looked("import-done");
  await nav("Contacts");
  await expect(page.getByRole("link", { name: readers[0]!.email })).toBeVisible();
  await looked("contacts");
});

test("campaign: written in the block editor by clicking and typing, with a merge tag from the picker; previewed; a test sent", async () => {
  test.setTimeout(180_000);
  await nav("Campaigns");
  await looked("campaigns-empty");
  await page.getByRole("link", { name: "New campaign" }).first().click();
  await page.getByLabel("Campaign name").fill("Autumn roast");
  await page.getByLabel("Subject").fill("The autumn roast is here");
  await page.getByLabel("Topic").selectOption({ label: "Coffee Letters" });

  const body = page.getByRole("textbox", { name: "Body" });
  // One click in the headline places the caret there; typing adds to it and leaves the other blocks alone.
  await body.getByText("A headline").click();
  await page.keyboard.press("End");
  await page.keyboard.type(" for autumn");
  await expect(body.getByRole("heading", { name: "A headline for autumn" })).toBeVisible();
  // The starter greets without a tag (a contact may lack a name); the sender adds the first name from the picker.
  await body.getByText("Hello,", { exact: true }).click();
  await page.keyboard.press("End");
  await page.keyboard.press("Backspace");
  await page.keyboard.type(" ");
  await page.getByRole("button", { name: "Merge tag in body" }).click();
  await page.getByRole("menuitem", { name: "contact.first_name" }).click();
  // Focus is back in the body after the tag: typing goes on after it, and Enter starts a paragraph, not a second tag.
  await page.keyboard.type(", our new roast has arrived.");
  await page.keyboard.press("Enter");
  await page.keyboard.type("Roasted in Portsmouth this week.");
  await expect(body).toContainText("Hello {{contact.first_name}}, our new roast has arrived.");
  await expect(body.getByText("Roasted in Portsmouth this week.")).toBeVisible();
  await body.getByText("Write your message here.").click({ clickCount: 3 });
  await page.keyboard.type("Order before Friday and it ships on Monday.");
  await expect(body.getByText("{{contact.first_name}}")).toHaveCount(1);
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Autumn roast" })).toBeVisible();
  await looked("campaign-draft");

  const frame = page.frameLocator('iframe[title="Mail preview"]');
  await expect(frame.getByRole("link", { name: "Unsubscribe" })).toBeVisible();

  await page.getByRole("button", { name: "Send test" }).click();
  const testDialog = page.getByRole("dialog", { name: "Send a test" });
  await expect(testDialog.getByLabel("Send to")).toHaveValue(ownerAddress);
  await testDialog.getByRole("button", { name: "Send test" }).click();
  await expect(page.getByText(`Test sent to ${ownerAddress}`)).toBeVisible();
  await mailboxMessage(ownerAddress, /\[Test\] The autumn roast is here/);
  await page.goBack();
});

test("send in the sandbox: the preview and the page say who is left out and why; the owner's own address receives the campaign", async () => {
  test.setTimeout(180_000);
  await page.goto(`${workspacePath}/campaigns`);
  await page.getByRole("link", { name: "Autumn roast" }).click();
  await expect(page.getByTestId("audience-recipients")).toHaveText("1");
  await expect(page.getByRole("table", { name: "Left out" })).toContainText("not one of your verified addresses");
  await page.getByRole("button", { name: "Send now" }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toContainText("It goes to 1 person now.");
  await confirm.getByRole("button", { name: "Send now" }).click();
  await expect(page.getByText("Sent", { exact: true })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId("progress-accepted")).toHaveText("1");
  await expect(page.getByText(/Not sent by a rule/)).toBeVisible();
  await expect(page.getByText(/not one of your verified addresses/i).first()).toBeVisible();
  await looked("campaign-sent-sandbox");
  await mailboxMessage(ownerAddress, /^The autumn roast is here$/);
});

test("review: the owner, the installation's operator, passes the workspace and the brand from the checklist's link", async () => {
  test.setTimeout(120_000);
  await page.goto(workspacePath);
  await page
    .getByRole("list", { name: "Setup checklist" })
    .getByRole("link", { name: /review/i })
    .click();
  await expect(page).toHaveURL(/\/operator/);
  await looked("operator");
  const brandCard = page.getByTestId(/^review-brand-/).filter({ hasText: "Northwind Coffee" });
  await brandCard.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByText(/Brand Northwind Coffee approved/)).toBeVisible();
  const workspaceCard = page.getByTestId(/^review-workspace-/).filter({ hasText: owner.workspace });
  await workspaceCard.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByText(new RegExp(`Workspace ${owner.workspace} approved`))).toBeVisible();
});

test("the campaign's successor reaches everyone, and its report counts them", async () => {
  test.setTimeout(180_000);
  await page.goto(`${workspacePath}/campaigns`);
  await page.getByRole("link", { name: "Autumn roast" }).click();
  await page.getByRole("button", { name: "Duplicate" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Copy of Autumn roast" })).toBeVisible();
  await expect(page.getByTestId("audience-recipients")).toHaveText(String(readers.length + 1));
  await page.getByRole("button", { name: "Send now" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Send now" }).click();
  await expect(page.getByText("Sent", { exact: true })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId("progress-accepted")).toHaveText(String(readers.length + 1));
  const mail = await mailboxMessage(readers[1]!.email, /^The autumn roast is here$/);
  await expect(mail).toContainText(`Hello ${readers[1]!.firstName}, our new roast has arrived.`);

  await page.goto(`${workspacePath}/campaigns`);
  await page.getByRole("link", { name: "Copy of Autumn roast" }).click();
  await page.getByRole("link", { name: "Report", exact: true }).click();
  await expect(page.getByTestId("report-recipients")).toHaveText(String(readers.length + 1));
  // The mail was looked at in the Test mailbox, which shows it without its open pixel: nobody opened it.
  await expect(page.getByTestId("report-opened")).toHaveText("0");
  await looked("report");
  await page.getByRole("link", { name: "Overview" }).first().click();
  await looked("overview-done");
});

test("a reader's page: their city corrected, unsubscribed from the topic at their request with a note, their data downloaded", async () => {
  test.setTimeout(180_000);
  const reader = readers[2]!;
  await nav("Contacts");
  await page.getByRole("link", { name: reader.email }).click();
  await expect(page.getByRole("heading", { level: 1, name: reader.email })).toBeVisible();
  await looked("contact");

  await page.getByRole("button", { name: "Edit contact" }).click();
  const edit = page.getByRole("dialog", { name: "Edit contact" });
  await edit.getByLabel("city").fill("Bordeaux");
  await edit.getByRole("button", { name: /Save/ }).click();
  await expect(edit).toBeHidden();
  await expect(page.getByText("Bordeaux")).toBeVisible();

  await page.getByRole("button", { name: "Unsubscribe from Coffee Letters" }).click();
  const optOut = page.getByRole("dialog", { name: "Unsubscribe from Coffee Letters" });
  // A note of how the person asked is required, and says so beside its field.
  await optOut.getByRole("button", { name: "Unsubscribe" }).click();
  await expect(optOut.getByLabel("How did they ask?")).toHaveAttribute("aria-invalid", "true");
  await optOut.getByLabel("How did they ask?").fill("asked by phone");
  await optOut.getByRole("button", { name: "Unsubscribe" }).click();
  await expect(optOut).toBeHidden();
  await expect(page.getByRole("list", { name: "Timeline" })).toContainText("asked by phone");

  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download data" }).click();
  const file = await download;
  const held = JSON.parse(await readFile((await file.path())!, "utf8")) as Record<string, unknown>;
  expect(JSON.stringify(held)).toContain(reader.email);
  expect(JSON.stringify(held)).toContain("asked by phone");
  await looked("contact-unsubscribed");
});

test("a reader erased at their request: the address typed to confirm, then gone from the contacts", async () => {
  test.setTimeout(180_000);
  const reader = readers[3]!;
  await nav("Contacts");
  await page.getByRole("link", { name: reader.email }).click();
  await expect(page.getByRole("heading", { level: 1, name: reader.email })).toBeVisible();

  await page.getByRole("button", { name: "Erase this person" }).click();
  const erase = page.getByRole("dialog", { name: "Erase this person" });
  await expect(erase).toContainText("cannot be restored");
  const confirmation = erase.getByLabel(`Type ${reader.email} to confirm`);
  await confirmation.fill("someone-else@example.com");
  await erase.getByRole("button", { name: "Erase for good" }).click();
  await expect(confirmation).toHaveAttribute("aria-invalid", "true");
  await page.screenshot({ path: "e2e/screenshots/screens/erase-dialog.png" });
  await confirmation.fill(reader.email);
  await erase.getByRole("button", { name: "Erase for good" }).click();

  await expect(page.getByRole("heading", { level: 1, name: "Contacts" })).toBeVisible();
  await expect(page.getByText(`${reader.email} was erased.`)).toBeVisible();
  await expect(page.getByRole("link", { name: reader.email })).toHaveCount(0);
});

import type { Page } from "@playwright/test";

import { expect, test } from "./fixtures";
import { inspectScreen } from "./inspect-screen";
import { screenshot } from "./screenshot";
import { signInAs } from "./sign-in-as";

// The contacts table reads its pages as JSON while a member searches, filters, sorts and pages: no page
// reload, the URL kept in step. The JSON reads answer the signed-in members of the workspace only.
test.describe.configure({ mode: "serial" });

const owner = { email: "table-owner@example.com", password: "table owner pass" };
const CONTACTS = 60;
let workspaceId: string;
let otherWorkspaceId: string;
let page: Page;

// Addresses in creation order: c00 (oldest) … c59 (newest); the address order runs the other way round.
const address = (n: number) =>
  `${String.fromCharCode(122 - Math.floor(n / 26))}${String.fromCharCode(122 - (n % 26))}-c${String(n).padStart(2, "0")}@table.example`;

// Every third contact carries custom attributes, shown as columns when chosen.
const attributesOf = (n: number): Record<string, string | number | boolean> =>
  n % 3 === 0 ? { plan: n % 2 ? "Pro" : "Starter", seats: 1200 + n, trial: n % 2 === 0, renews: "2027-01-31" } : {};

test.beforeAll(async ({ browser, seed }) => {
  workspaceId = await seed.workspace("Table Co", owner.email);
  await seed.user(owner.email, owner.password);
  await seed.attribute(workspaceId, "plan", "string");
  await seed.attribute(workspaceId, "seats", "number");
  await seed.attribute(workspaceId, "trial", "boolean");
  await seed.attribute(workspaceId, "renews", "date");
  for (let n = 0; n < CONTACTS; n++)
    await seed.contact(workspaceId, address(n), {
      ...(n === 7 ? { firstName: "Zelda", lastName: "Quill" } : {}),
      attributes: attributesOf(n),
    });
  otherWorkspaceId = await seed.workspace("Someone Else's Table", "someone-else@example.com");
  page = await browser.newPage();
  await signInAs(page, owner);
});
test.afterAll(() => page.close());

const rows = () => page.getByRole("table").getByRole("row");
// The first cell of a row is its checkbox; the address follows.
const addressCell = (row: number) => rows().nth(row).getByRole("cell").nth(1);
const firstCell = () => addressCell(1);
const contactsRead = () =>
  page.waitForResponse(
    (response) => response.url().includes(`/api/dashboard/w/${workspaceId}/contacts`) && response.ok(),
  );

test("contacts table: pages, sorting and search read JSON without reloading the page, and the URL follows", async () => {
  await page.goto(`/w/${workspaceId}/contacts`);
  await expect(rows()).toHaveCount(51);
  await expect(firstCell()).toHaveText(address(59));
  // A marker on the window survives only if the page is never loaded again.
  await page.evaluate(() => Object.assign(window, { stayedOnPage: true }));

  let read = contactsRead();
  await page.getByRole("link", { name: "Next page" }).click();
  await read;
  await expect(rows()).toHaveCount(11);
  await expect(page).toHaveURL(/after=/);
  await page.getByRole("link", { name: "First page" }).click();
  await expect(rows()).toHaveCount(51);

  read = contactsRead();
  await page.getByRole("link", { name: /^Email/ }).click();
  await read;
  await expect(page.getByRole("columnheader", { name: /Email/ })).toHaveAttribute("aria-sort", "ascending");
  await expect(firstCell()).toHaveText(address(59));
  await expect(page).toHaveURL(/sort=email/);
  await page.getByRole("link", { name: /^Email/ }).click();
  await expect(page.getByRole("columnheader", { name: /Email/ })).toHaveAttribute("aria-sort", "descending");
  await expect(firstCell()).toHaveText(address(0));
  await page.getByRole("link", { name: /^Added/ }).click();
  await expect(page.getByRole("columnheader", { name: /Added/ })).toHaveAttribute("aria-sort", "descending");
  await page.getByRole("link", { name: /^Added/ }).click();
  await expect(page.getByRole("columnheader", { name: /Added/ })).toHaveAttribute("aria-sort", "ascending");
  await expect(firstCell()).toHaveText(address(0));
  await screenshot(page, "contacts-sorted");

  // Typing searches after a pause; no button to press.
  await page.getByLabel("Search").fill("zel");
  await expect(rows()).toHaveCount(2);
  await expect(rows().nth(1)).toContainText("Zelda Quill");
  await expect(page).toHaveURL(/q=zel/);
  expect(await page.evaluate(() => (window as { stayedOnPage?: boolean }).stayedOnPage)).toBe(true);

  // The URL is the table's state: a reload shows the same rows.
  await page.reload();
  await expect(page.getByLabel("Search")).toHaveValue("zel");
  await expect(rows()).toHaveCount(2);
  await page.getByRole("button", { name: "Clear" }).click();
  await expect(rows()).toHaveCount(51);
  await page.getByLabel("Status").selectOption("unsubscribed");
  await expect(page.getByRole("heading", { name: "No contact matches" })).toBeVisible();
});

// Visible only: a streamed total's fallback can stay in the document, hidden, once the total has replaced it.
const total = () => page.getByTestId("contacts-total").filter({ visible: true });

test("contacts table: the total follows the search and filters, and name and status sort both ways", async () => {
  await page.goto(`/w/${workspaceId}/contacts`);
  await expect(total()).toHaveText("60 contacts");
  // The filter's words are the badges' words.
  await expect(page.getByLabel("Status").getByRole("option")).toHaveText([
    "Any status",
    "Subscribed",
    "Unsubscribed",
    "Bounced",
    "Complained",
  ]);
  await page.getByLabel("Search").fill("zel");
  await expect(total()).toHaveText("1 contact");
  await page.getByLabel("Search").fill("");
  await expect(total()).toHaveText("60 contacts");
  await page.getByLabel("Status").selectOption({ label: "Subscribed" });
  await expect(total()).toHaveText("60 contacts");
  await page.getByLabel("Status").selectOption({ label: "Unsubscribed" });
  await expect(total()).toHaveText("0 contacts");
  await expect(page.getByRole("heading", { name: "No contact matches" })).toBeVisible();
  await page.getByRole("button", { name: "Clear search and filters" }).click();
  await expect(rows()).toHaveCount(51);

  // Named contacts first, A–Z; the nameless after them, oldest first; Z–A is the exact reverse.
  await page.getByRole("link", { name: /^Name/ }).click();
  await expect(page.getByRole("columnheader", { name: /Name/ })).toHaveAttribute("aria-sort", "ascending");
  await expect(page).toHaveURL(/sort=name/);
  await expect(firstCell()).toHaveText(address(7));
  await expect(addressCell(2)).toHaveText(address(0));
  await page.getByRole("link", { name: /^Name/ }).click();
  await expect(page.getByRole("columnheader", { name: /Name/ })).toHaveAttribute("aria-sort", "descending");
  await expect(firstCell()).toHaveText(address(59));
  // The last page of Z–A ends with the only named contact.
  await page.getByRole("link", { name: "Next page" }).click();
  await expect(rows()).toHaveCount(11);
  await expect(rows().last().getByRole("cell").nth(1)).toHaveText(address(7));

  await page.getByRole("link", { name: /^Status/ }).click();
  await expect(page.getByRole("columnheader", { name: /Status/ })).toHaveAttribute("aria-sort", "ascending");
  await expect(page).toHaveURL(/sort=status(&|$)/);
  await expect(rows()).toHaveCount(51);
  await page.getByRole("link", { name: /^Status/ }).click();
  await expect(page.getByRole("columnheader", { name: /Status/ })).toHaveAttribute("aria-sort", "descending");
  // Links in the wild keep their meaning.
  await page.goto(`/w/${workspaceId}/contacts?sort=email_desc`);
  await expect(page.getByRole("columnheader", { name: /Email/ })).toHaveAttribute("aria-sort", "descending");
  await expect(firstCell()).toHaveText(address(0));
});

test("contacts table: chosen attributes show as columns, read by their type, and stay in the URL", async () => {
  await page.goto(`/w/${workspaceId}/contacts?sort=oldest`);
  await page.getByRole("button", { name: /Columns/ }).click();
  await page.getByRole("menuitemcheckbox", { name: /plan/ }).click();
  await page.getByRole("menuitemcheckbox", { name: /seats/ }).click();
  await page.getByRole("menuitemcheckbox", { name: /trial/ }).click();
  await page.keyboard.press("Escape");
  await expect(page).toHaveURL(/columns=plan%2Cseats%2Ctrial/);
  await expect(page.getByRole("columnheader")).toHaveText([
    /^$/,
    ...["Email", "Name", "Status", "Added", "plan", "seats", "trial"].map((name) => new RegExp(`^${name}`)),
  ]);
  // c00: Starter, 1,200 seats, on trial; c01 has no attributes.
  await expect(rows().nth(1).getByRole("cell")).toContainText(["Starter", "1,200", "Yes"]);
  await expect(rows().nth(2).getByRole("cell").nth(5)).toHaveText("—");

  // The URL is the choice: a reload shows the same columns; a key the workspace has not defined is dropped.
  await page.goto(`/w/${workspaceId}/contacts?columns=renews,nope,plan`);
  await expect(page.getByRole("columnheader", { name: "renews" })).toBeVisible();
  await expect(page.getByRole("columnheader", { name: "nope" })).toHaveCount(0);
  await expect(page.getByRole("columnheader", { name: "plan" })).toBeVisible();
  await screenshot(page, "contacts-attribute-columns");
});

test("the contacts screen fits a phone and reads in both themes, with attribute columns shown", async ({ browser }) => {
  const context = await browser.newContext({ storageState: await page.context().storageState() });
  try {
    await inspectScreen(context, `/w/${workspaceId}/contacts?columns=plan,seats,trial,renews`, "contacts-columns");
  } finally {
    await context.close();
  }
});

test("the dashboard's JSON reads answer members only, in the contract's error shape", async ({
  playwright,
  baseURL,
}) => {
  const ok = await page.request.get(`/api/dashboard/w/${workspaceId}/contacts?sort=email`);
  expect(ok.status()).toBe(200);
  expect(ok.headers()["cache-control"]).toContain("no-store");
  const body = await ok.json();
  expect(body.rows).toHaveLength(50);
  expect(body.rows[0].email).toBe(address(59));
  expect(typeof body.nextAfter).toBe("string");

  const bad = await page.request.get(`/api/dashboard/w/${workspaceId}/contacts?status=asleep`);
  expect(bad.status()).toBe(400);
  expect((await bad.json()).error).toMatchObject({
    type: "invalid_request_error",
    code: "validation_failed",
    param: "status",
  });

  const counted = await page.request.get(`/api/dashboard/w/${workspaceId}/contacts/count?q=zel`);
  expect(await counted.json()).toEqual({ count: 1, more: false });
  expect((await page.request.get(`/api/dashboard/w/${otherWorkspaceId}/contacts/count`)).status()).toBe(404);

  const theirs = await page.request.get(`/api/dashboard/w/${otherWorkspaceId}/contacts`);
  expect(theirs.status()).toBe(404);
  expect((await theirs.json()).error).toMatchObject({ type: "not_found_error" });

  const anonymous = await playwright.request.newContext({ baseURL });
  try {
    const signedOut = await anonymous.get(`/api/dashboard/w/${workspaceId}/overview`);
    expect(signedOut.status()).toBe(401);
    expect((await signedOut.json()).error).toMatchObject({ type: "authentication_error", code: "not_signed_in" });
  } finally {
    await anonymous.dispose();
  }
});

test("the overview's figures follow new contacts while the page is open", async ({ seed }) => {
  test.setTimeout(90_000);
  await page.goto(`/w/${workspaceId}`);
  const contacts = page.getByRole("definition").first();
  await expect(contacts).toHaveText(String(CONTACTS));
  await seed.contact(workspaceId, "late-arrival@table.example");
  await expect(contacts).toHaveText(String(CONTACTS + 1), { timeout: 60_000 });
});

test("contacts ticked, then the whole filter, acted on in bulk: unsubscribed at their request, then erased, with progress", async () => {
  test.setTimeout(120_000);
  await page.goto(`/w/${workspaceId}/contacts`);
  await page.getByRole("checkbox", { name: `Select ${address(59)}` }).check();
  await page.getByRole("checkbox", { name: `Select ${address(58)}` }).check();
  const bar = page.getByRole("region", { name: "Selected contacts" });
  await expect(bar).toContainText("2 selected");

  await bar.getByRole("button", { name: "Unsubscribe" }).click();
  const optOut = page.getByRole("dialog", { name: "Unsubscribe at their request" });
  // How they asked is required, and says so beside its field.
  await optOut.getByRole("button", { name: "Unsubscribe at their request" }).click();
  await expect(optOut.getByLabel("How did they ask?")).toHaveAttribute("aria-invalid", "true");
  await optOut.getByLabel("How did they ask?").fill("asked by letter");
  await optOut.getByRole("button", { name: "Unsubscribe at their request" }).click();
  await expect(page.getByText("Unsubscribed: 2 contacts.")).toBeVisible({ timeout: 60_000 });
  const row = (n: number) => page.getByRole("row").filter({ hasText: address(n) });
  await expect(row(59)).toContainText("Unsubscribed");
  await expect(row(58)).toContainText("Unsubscribed");
  await expect(row(57)).not.toContainText("Unsubscribed");

  // The page ticked, then everyone the filters match (here: everyone, on two pages).
  await page.getByRole("checkbox", { name: "Select every contact on this page" }).check();
  await expect(bar).toContainText("50 selected");
  await bar.getByRole("button", { name: "Select all matching these filters" }).click();
  await expect(bar).toContainText("All contacts matching these filters");
  await screenshot(page, "contacts-bulk-selection");
  await bar.getByRole("button", { name: "Erase" }).click();
  const erase = page.getByRole("dialog", { name: "Erase these people" });
  await erase.getByLabel(/Type ERASE/).fill("yes");
  await erase.getByRole("button", { name: "Erase for good" }).click();
  await expect(erase.getByLabel(/Type ERASE/)).toHaveAttribute("aria-invalid", "true");
  await erase.getByLabel(/Type ERASE/).fill("ERASE");
  await erase.getByRole("button", { name: "Erase for good" }).click();
  await expect(page.getByText(`Erased: ${CONTACTS + 1} contacts.`)).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText("No contacts yet")).toBeVisible();
});

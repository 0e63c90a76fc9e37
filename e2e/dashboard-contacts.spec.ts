import type { Page } from "@playwright/test";

import { expect, test } from "./fixtures";
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

test.beforeAll(async ({ browser, seed }) => {
  workspaceId = await seed.workspace("Table Co", owner.email);
  await seed.user(owner.email, owner.password);
  for (let n = 0; n < CONTACTS; n++)
    await seed.contact(workspaceId, address(n), n === 7 ? { firstName: "Zelda", lastName: "Quill" } : {});
  otherWorkspaceId = await seed.workspace("Someone Else's Table", "someone-else@example.com");
  page = await browser.newPage();
  await signInAs(page, owner);
});
test.afterAll(() => page.close());

const rows = () => page.getByRole("table").getByRole("row");
const firstCell = () => rows().nth(1).getByRole("cell").first();
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

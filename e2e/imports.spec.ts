import type { Page } from "@playwright/test";

import { expect, test } from "./fixtures";
import { inspectScreen } from "./inspect-screen";
import { screenshot } from "./screenshot";
import { signInAs } from "./sign-in-as";

// A sender brings a spreadsheet: upload, match the columns, read the dry run, import, watch it, find it
// in the history, and take the contacts away again as CSV.
const owner = { email: "import-owner@example.com", password: "import owner pass" };

test("CSV import: upload → mapping → dry run → apply → progress → history, then export", async ({ page, seed }) => {
  const workspaceId = await seed.workspace("Import Co", owner.email);
  await seed.user(owner.email, owner.password);
  const brandId = await seed.brand(workspaceId, "Import Co");
  await seed.topic(workspaceId, brandId, "Weekly news", { confirmation: false });
  await seed.list(workspaceId, brandId, "Spring fair");
  await seed.contact(workspaceId, "known@import.example", { firstName: "Known" });
  await seed.optOut(await seed.contact(workspaceId, "gone@import.example"));
  await signInAs(page, owner);

  await page.goto(`/w/${workspaceId}/contacts`);
  await page.getByRole("link", { name: "Import a file" }).click();
  await expect(page.getByRole("heading", { name: "Import contacts" })).toBeVisible();
  await expect(page.getByText("None yet")).toBeVisible();
  await screenshot(page, "import-upload");

  const csv = [
    "Email,First name,Last name,Company",
    "ada@import.example,Ada,Lovelace,Analytical",
    "grace@import.example,Grace,Hopper,Navy",
    "known@import.example,Knownest,,Old Co",
    "not an address,Bad,Row,X",
    "gone@import.example,Gone,Away,Y",
    "ADA@import.example,Ada,King,Analytical",
  ].join("\n");
  await page
    .getByLabel("CSV file")
    .setInputFiles({ name: "fair-signups.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await expect(page).toHaveURL(/\/contacts\/imports\/imp_/);
  await expect(page.getByRole("heading", { name: "fair-signups.csv" })).toBeVisible();
  // Recognised headers are matched already; the rest are left out.
  await expect(page.getByLabel("Field for column Email")).toHaveValue("email");
  await expect(page.getByLabel("Field for column First name")).toHaveValue("first_name");
  await expect(page.getByLabel("Field for column Company")).toHaveValue("");

  await page.getByLabel("Weekly news").check();
  await page.getByLabel("Add everyone to a list").selectOption({ label: "Spring fair" });
  await page.getByRole("button", { name: "Check the file" }).click();
  await expect(page.getByText("Confirm that everyone in this file agreed to receive these topics.")).toBeVisible();
  await page.getByLabel("Everyone in this file agreed to receive these topics").check();
  await screenshot(page, "import-mapping");
  await page.getByRole("button", { name: "Check the file" }).click();

  const dryRun = page.getByLabel("What the dry run found");
  await expect(dryRun.getByTestId("count-created")).toHaveText("2");
  await expect(dryRun.getByTestId("count-unchanged")).toHaveText("1");
  await expect(dryRun.getByTestId("count-updated")).toHaveText("0");
  await expect(dryRun.getByTestId("count-refused")).toHaveText("3");
  await expect(page.getByText("Opted out: never resubscribed by an import")).toBeVisible();
  await screenshot(page, "import-dry-run");

  const refusedHref = await page.getByRole("link", { name: "Refused rows (CSV)" }).first().getAttribute("href");
  const refused = await (await page.request.get(refusedHref!)).text();
  expect(refused).toContain("5,invalid_email");
  expect(refused).toContain("6,unsubscribed");
  expect(refused).toContain("2,duplicate");

  await page.getByRole("button", { name: "Import 3 contacts" }).click();
  await expect(page.getByRole("heading", { name: "Imported", exact: true })).toBeVisible();
  const did = page.getByLabel("What the import did");
  await expect(did.getByTestId("count-created")).toHaveText("2");
  await expect(did.getByTestId("count-subscribed")).toHaveText("3");
  await expect(
    page.getByText("Subscribed to Weekly news, without a confirmation mail. Added to the list Spring fair."),
  ).toBeVisible();
  // The outcome, not the dry run beside it again, nor a progress bar at its end.
  await expect(page.getByRole("heading", { name: "Dry run" })).toHaveCount(0);
  await expect(page.getByLabel("What the dry run found")).toHaveCount(0);
  await expect(page.getByRole("progressbar", { name: "Import progress" })).toHaveCount(0);
  await expect(page.getByTestId("outcome-differs")).toHaveCount(0);
  const refusedAfterHref = await page.getByRole("link", { name: "Refused rows (CSV)" }).getAttribute("href");
  expect(await (await page.request.get(refusedAfterHref!)).text()).toContain("6,unsubscribed");
  await screenshot(page, "import-done");
  await inspectScreen(page.context(), new URL(page.url()).pathname, "import-done");

  await page.getByRole("link", { name: "Import", exact: true }).click();
  const row = page.getByRole("row", { name: /fair-signups\.csv/ });
  await expect(row.getByText("Imported")).toBeVisible();
  await expect(row.getByText(owner.email)).toBeVisible();
  await screenshot(page, "import-history");

  await page.goto(`/w/${workspaceId}/contacts`);
  const exportHref = await page.getByRole("link", { name: "Export all contacts" }).getAttribute("href");
  const exported = await (await page.request.get(exportHref!)).text();
  expect(exported).toContain("ada@import.example,Ada,King,subscribed");
  expect(exported).toContain(",subscribed,import,");
  expect(exported).toContain("gone@import.example,,,unsubscribed");
});

/** The screen as it stands (a form left open), in both themes at desktop and phone width, never wider than the window. */
async function lookedAsIs(page: Page, name: string): Promise<void> {
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      // Neither the page nor a table in it scrolls sideways.
      const wide = await page.evaluate(() => [
        ...(document.documentElement.scrollWidth > window.innerWidth ? ["the page"] : []),
        ...[...document.querySelectorAll("[data-slot=table-container]")]
          .filter((table) => table.scrollWidth > table.clientWidth)
          .map((table) => `a table (${table.scrollWidth} px in ${table.clientWidth} px)`),
      ]);
      expect(wide, `${name} at ${width} px, ${scheme}`).toEqual([]);
      await page.screenshot({ path: `e2e/screenshots/screens/${name}-${width}-${scheme}.png`, fullPage: true });
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: "light" });
}

const sender = { email: "import-attributes@example.com", password: "import attributes pass" };

test("a column without a field gets a new attribute from the mapping step, a near-named one its attribute, and the import fills both", async ({
  page,
  seed,
}) => {
  const workspaceId = await seed.workspace("Roastery", sender.email);
  await seed.user(sender.email, sender.password);
  await seed.attribute(workspaceId, "favorite_roast", "string");
  await signInAs(page, sender);

  await page.goto(`/w/${workspaceId}/contacts/imports`);
  const csv = [
    "Email Address,Favourite roast,Company,Loyalty points",
    "ada@roast.example,Ethiopia,Analytical,12",
    "grace@roast.example,Colombia,Navy,7",
  ].join("\n");
  await page
    .getByLabel("CSV file")
    .setInputFiles({ name: "roastery.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await expect(page.getByRole("heading", { name: "roastery.csv" })).toBeVisible();
  // "Email Address" is the address; "Favourite roast" is one letter from favorite_roast.
  await expect(page.getByLabel("Field for column Email Address")).toHaveValue("email");
  await expect(page.getByLabel("Field for column Favourite roast")).toHaveValue("attributes.favorite_roast");
  await expect(page.getByLabel("Field for column Company")).toHaveValue("");

  // Company: a new attribute, its key from the column's name and its type from its cells.
  await page.getByLabel("Field for column Company").selectOption({ label: "New attribute…" });
  const company = page.getByRole("group", { name: "New attribute for column Company" });
  await expect(company.getByLabel("Key")).toHaveValue("company");
  await expect(company.getByLabel("Type")).toHaveValue("string");
  // The attributes screen's rules: a standard field's name is refused beside the key, and nothing is defined.
  await company.getByLabel("Key").fill("first_name");
  await company.getByRole("button", { name: "Create and map" }).click();
  await expect(company.getByText("first_name is a standard contact field.")).toBeVisible();
  await company.getByLabel("Key").fill("Company Name");
  await company.getByLabel("Key").press("Enter");
  await expect(company.getByText(/must be lower-case letters/i)).toBeVisible();
  await expect(page.getByLabel("What the dry run found")).toHaveCount(0);
  await expect(
    page.getByLabel("Field for column Loyalty points").locator("option", { hasText: "first_name" }),
  ).toHaveCount(0);
  await lookedAsIs(page, "import-new-attribute");
  await company.getByLabel("Key").fill("company");
  await company.getByRole("button", { name: "Create and map" }).click();
  await expect(company).toHaveCount(0);
  await expect(page.getByLabel("Field for column Company")).toHaveValue("attributes.company");

  // Loyalty points: numbers, so a number attribute.
  await page.getByLabel("Field for column Loyalty points").selectOption({ label: "New attribute…" });
  const points = page.getByRole("group", { name: "New attribute for column Loyalty points" });
  await expect(points.getByLabel("Key")).toHaveValue("loyalty_points");
  await expect(points.getByLabel("Type")).toHaveValue("number");
  await points.getByRole("button", { name: "Create and map" }).click();
  await expect(page.getByLabel("Field for column Loyalty points")).toHaveValue("attributes.loyalty_points");
  await lookedAsIs(page, "import-mapped");

  await page.getByRole("button", { name: "Check the file" }).click();
  await expect(page.getByLabel("What the dry run found").getByTestId("count-created")).toHaveText("2");
  await page.getByRole("button", { name: "Import 2 contacts" }).click();
  await expect(page.getByRole("heading", { name: "Imported", exact: true })).toBeVisible();
  await expect(page.getByLabel("What the import did").getByTestId("count-created")).toHaveText("2");

  // Both attributes are defined on the workspace, and the import filled them.
  await page.goto(`/w/${workspaceId}/attributes`);
  await expect(page.getByRole("row", { name: /company/ })).toBeVisible();
  await expect(page.getByRole("row", { name: /loyalty_points/ })).toBeVisible();
  await page.goto(`/w/${workspaceId}/contacts`);
  const exportHref = await page.getByRole("link", { name: "Export all contacts" }).getAttribute("href");
  const exported = await (await page.request.get(exportHref!)).text();
  const [head, ...lines] = exported.trim().split("\n");
  const columns = head!.split(",");
  const ada = lines.find((line) => line.split(",").includes("ada@roast.example"))!.split(",");
  expect(ada[columns.indexOf("attributes.company")]).toBe("Analytical");
  expect(ada[columns.indexOf("attributes.favorite_roast")]).toBe("Ethiopia");
  expect(ada[columns.indexOf("attributes.loyalty_points")]).toBe("12");
});

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


import { admin } from "./admin-cli";
import { expect, test } from "./fixtures";
import { screenshot } from "./screenshot";
import { signInAs } from "./sign-in-as";

// The billing screen in each stage of the ladder, driven by the manual provider: a sender on a trial
// chooses a plan, the operator records the payment, a later payment fails (sending paused), and
// workspaces further down the ladder show read-only, deletion scheduled and deleted, with their dates.
test.describe.configure({ mode: "serial" });

const owner = { email: "billing-owner@example.com", password: "billing owner pass" };
const operator = { email: "billing-operator@example.com", password: "billing operator pass" };
let trial: string;

test.beforeAll(async ({ seed }) => {
  trial = await seed.workspace("Billing Co", owner.email);
  await seed.user(owner.email, owner.password);
  await seed.operator(operator.email, operator.password, trial);
});

test("a trial shows its days left and an empty invoice list; choosing a plan issues an invoice in the workspace's currency", async ({
  page,
}) => {
  await signInAs(page, owner);
  await page.goto(`/w/${trial}/billing`);
  await expect(page.getByRole("heading", { name: "Billing", exact: true })).toBeVisible();
  await expect(page.getByTestId("billing-status")).toHaveText(/^Trial: 14 days left, until /);
  await expect(page.getByRole("progressbar", { name: "Allowance used" })).toBeVisible();
  await expect(page.getByText("0 of 1,000 sends used")).toBeVisible();
  await expect(page.getByText("No invoices yet")).toBeVisible();
  await expect(page.getByTestId("billing-banner")).toHaveCount(0);
  await screenshot(page, "billing-trial");

  await page.getByRole("button", { name: "Choose a plan" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Choose Growth" }).click();
  await expect(page.getByText("Invoice issued for Growth.")).toBeVisible();
  const invoice = page.getByRole("row").filter({ hasText: "$79.00" });
  await expect(invoice).toContainText("Open");
  await expect(invoice).toContainText("Growth");
});

test("the operator records the payment: the workspace is active on its plan, paid through a month", async ({
  page,
}) => {
  await signInAs(page, operator);
  await page.goto("/operator/billing");
  const account = page.getByTestId(`billing-account-${trial}`);
  await expect(account).toContainText("Billing Co");
  await expect(account).toContainText("$79.00");
  await screenshot(page, "operator-billing");
  await account.getByRole("button", { name: "Record payment" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Record payment" }).click();
  await expect(page.getByText("Payment recorded.")).toBeVisible();
  await expect(account).toContainText("active");

  await page.context().clearCookies();
  await signInAs(page, owner);
  await page.goto(`/w/${trial}/billing`);
  await expect(page.getByRole("heading", { name: /Growth/ })).toBeVisible();
  await expect(page.getByTestId("billing-status")).toHaveText(/^Paid through /);
  await expect(page.getByText("0 of 100,000 sends used")).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: "$79.00" })).toContainText("Paid");
  await screenshot(page, "billing-active");
});

test("a failed payment pauses sending: a banner on every screen says since when and when the workspace becomes read-only", async ({
  page,
}) => {
  const invoice = admin<"invoice_id">("billing:invoice", "--workspace", trial, "--amount", "79");
  admin("billing:payment-failed", "--invoice", invoice.invoice_id);
  await signInAs(page, owner);
  await page.goto(`/w/${trial}/contacts`);
  const banner = page.getByTestId("billing-banner");
  await expect(banner).toContainText("Sending is paused");
  await expect(banner).toContainText(/Sending paused since .*: the last payment failed\. Read-only from /);
  await page.goto(`/w/${trial}/billing`);
  await expect(page.getByRole("list", { name: "Next stages" })).toContainText("Read-only");
  await expect(page.getByRole("list", { name: "Next stages" })).toContainText("Deleted");
  await expect(page.getByRole("row").filter({ hasText: "Payment failed" })).toHaveCount(1);
  await screenshot(page, "billing-overdue");

  const shown = admin<"stage", unknown>("billing:show", "--workspace", trial);
  expect(shown.stage).toBe("overdue");
  admin("billing:settle", "--invoice", invoice.invoice_id);
  await page.reload();
  await expect(page.getByTestId("billing-banner")).toHaveCount(0);
});

for (const [stage, daysAgo, banner, status] of [
  [
    "read_only",
    10,
    "This workspace is read-only",
    /^Read-only since .*: nothing is sent or changed; reports and contact export keep working\. Deletion scheduled from /,
  ],
  [
    "deletion_scheduled",
    70,
    "This workspace will be deleted",
    /^Deletion scheduled since .*: contact export still works\. Deletion on /,
  ],
  ["deleted", 100, "This workspace was deleted", /^Deleted on .*\. Invoices and payment history are kept below\.$/],
] as const) {
  test(`${stage}: the banner and the billing screen say what happened and what comes next`, async ({ page, seed }) => {
    const email = `billing-${stage}@example.com`;
    const workspaceId = await seed.workspace(`Ladder ${stage}`, email);
    await seed.user(email, owner.password);
    await seed.unpaidSince(workspaceId, daysAgo);
    await signInAs(page, { email, password: owner.password });
    await page.goto(`/w/${workspaceId}/billing`);
    await expect(page.getByTestId("billing-banner")).toContainText(banner);
    await expect(page.getByTestId("billing-status")).toHaveText(status);
    await expect(page.getByRole("row").filter({ hasText: "Payment failed" })).toHaveCount(1);
    await screenshot(page, `billing-${stage.replace("_", "-")}`);
    if (stage === "read_only") {
      // Every screen carries the banner, and a change made there is refused next to the form, as the API refuses it.
      await page.goto(`/w/${workspaceId}/members`);
      await expect(page.getByTestId("billing-banner")).toContainText("Open billing");
      await page.getByRole("button", { name: "Invite member" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByLabel("Email").fill("colleague@example.com");
      await dialog.getByRole("button", { name: /Invite|Send/ }).click();
      await expect(dialog.getByRole("alert")).toContainText("cannot act now");
    }
  });
}

test("the operator's workflow runs list the billing ladder's runs with their state, and filter by state", async ({
  page,
}) => {
  await signInAs(page, operator);
  await page.goto("/operator/workflows");
  await expect(page.getByRole("heading", { name: "Workflow runs" })).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: "billing-ladder" }).first()).toBeVisible();
  await screenshot(page, "operator-workflows");
  await page
    .getByRole("navigation", { name: "Run state" })
    .getByRole("link", { name: "cancelled", exact: true })
    .click();
  await expect(page).toHaveURL(/state=cancelled/);
  // The overdue episode above ended with its settlement: its run was cancelled.
  await expect(page.getByRole("row").filter({ hasText: "billing-ladder" }).first()).toContainText("cancelled");
});

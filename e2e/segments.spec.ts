import type { Page } from "@playwright/test";

import { expect, test } from "./fixtures";
import { inspectScreen } from "./inspect-screen";
import { screenshot } from "./screenshot";
import { signInAs } from "./sign-in-as";

// A sender describes a group by a rule, watches how many of a topic's subscribers match while writing it,
// saves it, sees it counted in the list and sends a campaign only to it.
test.describe.configure({ mode: "serial" });

const owner = { email: "segments-owner@example.com", password: "segments owner pass" };
let workspaceId: string;
let page: Page;

test.beforeAll(async ({ browser, seed }) => {
  workspaceId = await seed.workspace("Segment Co", owner.email);
  await seed.user(owner.email, owner.password);
  const brand = await seed.brand(workspaceId, "Segment Co");
  const topicIds = [await seed.topic(workspaceId, brand, "Weekly Digest", { confirmation: false })];
  await seed.attribute(workspaceId, "plan", "string");
  await seed.attribute(workspaceId, "seats", "number");
  await seed.contact(workspaceId, "ada@pro.example", {
    firstName: "Ada",
    topicIds,
    attributes: { plan: "pro", seats: 12 },
  });
  await seed.contact(workspaceId, "bob@pro.example", {
    firstName: "Bob",
    topicIds,
    attributes: { plan: "pro", seats: 2 },
  });
  await seed.contact(workspaceId, "cy@free.example", { firstName: "Cy", topicIds, attributes: { plan: "free" } });
  page = await browser.newPage();
  await signInAs(page, owner);
});
test.afterAll(() => page.close());

test("segments: the empty screen says what they are for; the builder counts as the rule is written, shows a problem beside its condition, and saves", async () => {
  await page.goto(`/w/${workspaceId}/segments`);
  await expect(page.getByRole("heading", { name: "Create your first segment" })).toBeVisible();
  await screenshot(page, "segments-empty");
  await page.getByRole("link", { name: "New segment" }).first().click();

  await page.getByLabel("Segment name").fill("Big pro teams");
  const count = page.getByTestId("segment-count");
  const first = page.getByTestId("segment-condition").first();
  await first.getByLabel("Condition on").selectOption({ label: "plan" });
  await first.getByLabel("Value").fill("pro");
  await expect(count).toContainText("2 subscribers of Weekly Digest match.");

  await page.getByRole("button", { name: "Add condition" }).click();
  const second = page.getByTestId("segment-condition").nth(1);
  await second.getByLabel("Condition on").selectOption({ label: "seats" });
  await second.getByLabel("Operator").selectOption({ label: "is more than" });
  await second.getByLabel("Value").fill("");
  await page.getByRole("button", { name: "Save segment" }).click();
  await expect(second.getByRole("alert")).toContainText("must be a number");
  await second.getByLabel("Value").fill("5");
  await expect(count).toContainText("1 subscriber of Weekly Digest matches.");
  await screenshot(page, "segment-builder");

  await page.getByRole("button", { name: "Save segment" }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${workspaceId}/segments$`));
  const row = page.getByRole("row", { name: /Big pro teams/ });
  await expect(row).toContainText("1");
  await screenshot(page, "segments-list");
});

test("the segments screens fit a phone and read in both themes", async ({ browser }) => {
  const context = await browser.newContext({ storageState: await page.context().storageState() });
  try {
    await inspectScreen(context, `/w/${workspaceId}/segments`, "segments");
    await page.goto(`/w/${workspaceId}/segments`);
    await page.getByRole("link", { name: "Big pro teams" }).click();
    await expect(page.getByTestId("segment-count")).toContainText("1 subscriber");
    await inspectScreen(context, new URL(page.url()).pathname, "segment-edit");
  } finally {
    await context.close();
  }
});

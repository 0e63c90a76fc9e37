import type { Page } from "@playwright/test";

import { expect, test } from "./fixtures";
import { screenshot } from "./screenshot";
import { signInAs } from "./sign-in-as";

// A sender adds an A/B test of the subject to a draft, sends it: half the audience gets a variant
// each; the wait passes (the test moves the clock), the variant people opened wins and the rest get
// it, once each; the campaign page and its report show each variant's figures and the winner.
test.describe.configure({ mode: "serial" });

const owner = { email: "ab-owner@example.com", password: "ab test owner pass" };
const people = Array.from({ length: 10 }, (_, i) => `reader${i}@ab.example`);
let workspaceId: string;
let campaignId: string;
let page: Page;

test.beforeAll(async ({ browser, seed }) => {
  workspaceId = await seed.workspace("AB Co", owner.email);
  await seed.user(owner.email, owner.password);
  const brandId = await seed.brand(workspaceId, "AB Co");
  await seed.approve(workspaceId);
  const topicIds = [await seed.topic(workspaceId, brandId, "Launches", { confirmation: false })];
  for (const email of people) await seed.contact(workspaceId, email, { topicIds });
  campaignId = await seed.campaign(workspaceId, { brandId, topicId: topicIds[0]!, name: "Spring launch" });
  page = await browser.newPage();
  await signInAs(page, owner);
});
test.afterAll(() => page.close());

const mailOf = async (seed: { mailTo(address: string): Promise<{ subject: string; html: string }[]> }) =>
  Promise.all(people.map(async (email) => ({ email, mail: await seed.mailTo(email) })));

test("a/b test: added in the editor with errors beside its fields, then saved", async () => {
  await page.goto(`/w/${workspaceId}/campaigns/${campaignId}`);
  const card = page.getByTestId("ab-test");
  await expect(card.getByText("No A/B test")).toBeVisible();
  await card.getByRole("button", { name: "Add an A/B test" }).click();
  await expect(card.getByLabel("Variant A")).toHaveValue("Spring launch");
  await card.getByRole("button", { name: "Save the A/B test" }).click();
  await expect(card.getByLabel("Variant B")).toHaveAccessibleDescription(/must not be empty/);
  await card.getByLabel("Variant B").fill("Spring launch: 20 % off today");
  await card.getByLabel("Test share").selectOption("50");
  await card.getByLabel("Winner by").selectOption("human_opens");
  await card.getByLabel("Wait (minutes)").fill("0");
  await card.getByRole("button", { name: "Save the A/B test" }).click();
  await expect(card.getByLabel("Wait (minutes)")).toHaveAccessibleDescription(/wait at least 1 minute/);
  await screenshot(page, "ab-test-editor-error");
  await card.getByLabel("Wait (minutes)").fill("120");
  await card.getByRole("button", { name: "Save the A/B test" }).click();
  await expect(card.getByText("50 % in the test; the winner by human opens after 2 hours.")).toBeVisible();
  await screenshot(page, "ab-test-saved");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "e2e/screenshots/ab-test-saved-390.png", fullPage: true });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1280, height: 800 });
});

test("a/b test: sent, the test share gets one variant each and the rest wait", async ({ seed }) => {
  await page.getByRole("button", { name: "Send now" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Send now" }).click();
  await expect
    .poll(async () => (await mailOf(seed)).filter(({ mail }) => mail.length > 0).length, { timeout: 30_000 })
    .toBe(5);
  const subjects = (await mailOf(seed)).flatMap(({ mail }) => mail.map((m) => m.subject));
  expect(new Set(subjects)).toEqual(new Set(["Spring launch", "Spring launch: 20 % off today"]));
  await page.reload();
  const results = page.getByTestId("ab-test-results");
  await expect(results).toContainText("The winner by opens by people is chosen");
  await expect(results.getByTestId("ab-variant-rest")).toContainText("0");
  await screenshot(page, "ab-test-waiting");
});

test("a/b test: after the wait the variant people opened wins, the rest get it once each, and the report shows each variant", async ({
  seed,
}) => {
  // A person opens one mail of variant B (its pixel, loaded by a browser).
  const opened = (await mailOf(seed)).find(({ mail }) => mail[0]?.subject === "Spring launch: 20 % off today")!;
  const pixel = opened.mail[0]!.html.match(/<img src="([^"]*\/t\/o\/[^"]*)"/)![1]!;
  const response = await page.request.get(pixel.replaceAll("&amp;", "&"), {
    headers: {
      "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36",
    },
  });
  expect(response.ok()).toBe(true);

  await seed.pastAbTestWait(campaignId);
  await expect
    .poll(async () => (await mailOf(seed)).filter(({ mail }) => mail.length > 0).length, { timeout: 30_000 })
    .toBe(10);
  const all = await mailOf(seed);
  // Nobody twice; the five who waited got the winner.
  expect(all.every(({ mail }) => mail.length === 1)).toBe(true);
  expect(all.filter(({ mail }) => mail[0]!.subject === "Spring launch: 20 % off today").length).toBeGreaterThanOrEqual(
    5,
  );

  // The last mail arrives a moment before dispatch marks the campaign sent, and the page shows the status it
  // was rendered with: read it again until it says so.
  await expect(async () => {
    await page.reload();
    await expect(page.getByText("Finished: where each recipient's mail went.")).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 120_000 });
  const results = page.getByTestId("ab-test-results");
  await expect(results).toContainText("Variant B won, chosen by its metric after the wait");
  await page.goto(`/w/${workspaceId}/campaigns/${campaignId}/report`);
  const report = page.getByTestId("ab-test-results");
  await expect(report.getByTestId("ab-variant-B")).toContainText("Winner");
  await expect(report.getByTestId("ab-variant-B")).toContainText("1");
  await expect(report.getByTestId("ab-variant-rest")).toContainText("5");
  await screenshot(page, "ab-test-report");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "e2e/screenshots/ab-test-report-390.png", fullPage: true });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

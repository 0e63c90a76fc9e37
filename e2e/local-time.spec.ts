import type { Page } from "@playwright/test";

import { expect, test } from "./fixtures";
import { inspectScreen } from "./inspect-screen";
import { screenshot } from "./screenshot";
import { signInAs } from "./sign-in-as";

// A sender schedules a campaign "at HH:MM in each recipient's time zone": the page lists its slices
// (UTC for the reader without a zone, who gets the workspace's, and New York five hours later), the
// first slice's hour comes, its mail arrives and the page shows that slice sent, the other waiting.
test.describe.configure({ mode: "serial" });

const owner = { email: "local-time-owner@example.com", password: "local time owner pass" };
let workspaceId: string;
let campaignId: string;
let page: Page;

// The app runs on the machine's clock, which a test cannot set: the first slice is placed on the next
// whole minute but one, so the test waits for it (at most about two minutes) instead of moving the clock.
const firstSlice = new Date(Math.ceil((Date.now() + 75_000) / 60_000) * 60_000);
const date = firstSlice.toISOString().slice(0, 10);
const time = firstSlice.toISOString().slice(11, 16);

test.beforeAll(async ({ browser, seed }) => {
  workspaceId = await seed.workspace("Local Time Co", owner.email);
  await seed.user(owner.email, owner.password);
  const brand = await seed.brand(workspaceId, "Local Time Co");
  await seed.approve(workspaceId);
  const topicIds = [await seed.topic(workspaceId, brand, "Morning Brief", { confirmation: false })];
  await seed.contact(workspaceId, "utc-reader@readers.example", { firstName: "Uma", topicIds });
  await seed.contact(workspaceId, "ny-reader@readers.example", {
    firstName: "Nia",
    topicIds,
    timeZone: "America/New_York",
  });
  campaignId = await seed.campaign(workspaceId, { brandId: brand, topicId: topicIds[0]!, name: "Morning brief" });
  page = await browser.newPage();
  await signInAs(page, owner);
});
test.afterAll(() => page.close());

test("local time: a time already past in a recipient's zone is refused beside the date; a later one is scheduled and the page lists its slices", async () => {
  await page.goto(`/w/${workspaceId}/campaigns/${campaignId}`);
  await page.getByRole("button", { name: "Schedule" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("At a time in each recipient's time zone").check();
  // Yesterday at this time has passed everywhere that matters here: refused beside the date.
  const yesterday = new Date(firstSlice.getTime() - 86_400_000).toISOString().slice(0, 10);
  await dialog.getByLabel("Date").fill(yesterday);
  await dialog.getByLabel("Local time").fill(time);
  await dialog.getByRole("button", { name: "Schedule" }).click();
  await expect(dialog.getByText(/has already come in UTC/)).toBeVisible();
  await screenshot(page, "local-time-schedule-error");

  await dialog.getByLabel("Date").fill(date);
  await dialog.getByRole("button", { name: "Schedule" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Scheduled", { exact: true })).toBeVisible();
  const slices = page.getByTestId("local-time-slice");
  await expect(slices).toHaveCount(2);
  await expect(slices.nth(0)).toContainText(`${time} UTC`);
  await expect(slices.nth(0)).toContainText("1 subscriber");
  await expect(slices.nth(1)).toContainText(/UTC−0[45]:00/);
  await expect(slices.nth(1)).toContainText("America/New_York");
  await screenshot(page, "local-time-scheduled");
});

test("local time: when the first slice's hour comes its mail arrives and the page shows it sent; New York's waits", async ({
  seed,
}) => {
  test.setTimeout(240_000);
  await expect
    .poll(async () => (await seed.mailTo("utc-reader@readers.example")).map((mail) => mail.subject), {
      timeout: 200_000,
      intervals: [5_000],
    })
    .toEqual(["Morning brief"]);
  // Not before its hour.
  expect(Date.now()).toBeGreaterThanOrEqual(firstSlice.getTime());
  expect(await seed.mailTo("ny-reader@readers.example")).toEqual([]);
  await page.reload();
  const slices = page.getByTestId("local-time-slice");
  await expect(slices.nth(0)).toContainText("1 of 1 sent");
  await expect(slices.nth(0)).toContainText("Sent");
  await expect(slices.nth(1)).toContainText("0 of 1 sent");
  await expect(slices.nth(1)).toContainText("Waiting");
  await screenshot(page, "local-time-sending");
});

test("the campaign page with its slices and the deliverability screen's time zone fit a phone and read in both themes", async ({
  browser,
}) => {
  const context = await browser.newContext({ storageState: await page.context().storageState() });
  await inspectScreen(context, `/w/${workspaceId}/campaigns/${campaignId}`, "local-time-campaign");
  await inspectScreen(context, `/w/${workspaceId}/deliverability`, "local-time-deliverability");
  await context.close();
});

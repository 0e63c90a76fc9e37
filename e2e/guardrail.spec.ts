import type { Page } from "@playwright/test";

import { defaultCtx } from "@/lib/context";
import { sendingCampaign } from "@/lib/testing/guardrail-fixture";

import { expect, test } from "./fixtures";
import { inspectScreen } from "./inspect-screen";
import { screenshot } from "./screenshot";
import { signInAs } from "./sign-in-as";

// The guardrail as a sender meets it: a campaign it paused for complaints, one it warns about, the
// overview listing both, the resume that asks for the figures to be read, and the thresholds' card.
test.describe.configure({ mode: "serial" });

const owner = { email: "guardrail-owner@example.com", password: "guardrail owner pass" };
let workspaceId: string;
let paused: string;
let warned: string;
let page: Page;

test.beforeAll(async ({ browser, seed }) => {
  workspaceId = await seed.workspace("Guardrail Co", owner.email);
  await seed.user(owner.email, owner.password);
  const brandId = await seed.brand(workspaceId, "Guardrail Co");
  await seed.approve(workspaceId);
  const topicId = await seed.topic(workspaceId, brandId, "Deals", { confirmation: false });
  // Two campaigns of the brand, 1,000 mails each handed over: 3 complaints stop the first (0.3 %),
  // 2 on the second warn (0.2 %; the brand's 5 in 2,000 are 0.25 %).
  const ctx = defaultCtx();
  const first = await sendingCampaign(ctx, { workspaceId, brandId, topicId }, 1000, "Spring blast");
  const second = await sendingCampaign(ctx, { workspaceId, brandId, topicId }, 1000, "Summer preview");
  await first.report(3, "complained");
  await second.report(2, "complained");
  paused = first.campaignId;
  warned = second.campaignId;
  // A context of its own: inspectScreen opens more pages in it, signed in as the owner.
  page = await (await browser.newContext()).newPage();
  await signInAs(page, owner);
});
test.afterAll(() => page.context().close());

test("the overview lists the campaign the guardrail paused and the one past a warning", async () => {
  await page.goto(`/w/${workspaceId}`);
  const card = page.getByText("Complaints and bounces").locator("xpath=ancestor::*[@data-slot='card'][1]");
  await expect(card).toContainText("Spring blast");
  await expect(card).toContainText("Paused by the guardrail: complaint rate 0.30 %");
  await expect(card).toContainText("Summer preview");
  await expect(card).toContainText("Still sending, warned: complaint rate 0.20 %");
  await screenshot(page, "guardrail-overview");
  await inspectScreen(page.context(), `/w/${workspaceId}`, "guardrail-overview");
});

test("a campaign past the warning threshold says so with its figures and keeps sending", async () => {
  await page.goto(`/w/${workspaceId}/campaigns/${warned}`);
  await expect(page.getByText("Its complaint rate is past the warning threshold")).toBeVisible();
  await expect(page.getByText("1,000 delivered · 2 complaints (0.20 %)")).toBeVisible();
  await screenshot(page, "guardrail-campaign-warned");
  await inspectScreen(page.context(), `/w/${workspaceId}/campaigns/${warned}`, "guardrail-campaign-warned");
});

test("a campaign the guardrail paused explains why; Resume asks for the figures to be read, then sends again", async () => {
  await page.goto(`/w/${workspaceId}/campaigns/${paused}`);
  await expect(page.getByText("Paused by the guardrail: its complaint rate reached the stop threshold")).toBeVisible();
  await expect(page.getByText("1,000 delivered · 3 complaints (0.30 %)").first()).toBeVisible();
  await screenshot(page, "guardrail-campaign-paused");
  await inspectScreen(page.context(), `/w/${workspaceId}/campaigns/${paused}`, "guardrail-campaign-paused");

  await page.getByRole("button", { name: "Resume" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("Resume despite the complaint rate?");
  await expect(dialog).toContainText("3 complaints (0.30 %)");
  await dialog.getByRole("button", { name: "Resume sending" }).click();
  await expect(dialog.getByRole("alert")).toContainText("Resume it only after reading the figures");
  await screenshot(page, "guardrail-resume-dialog");
  await dialog.getByLabel("I have read these figures").check();
  await dialog.getByRole("button", { name: "Resume sending" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Paused by the guardrail")).toBeHidden();
});

test("the Deliverability page sets the workspace's thresholds; a warning at or above its stop is refused beside the field", async () => {
  await page.goto(`/w/${workspaceId}/deliverability`);
  await expect(page.getByText("This workspace uses the defaults.")).toBeVisible();
  await inspectScreen(page.context(), `/w/${workspaceId}/deliverability`, "deliverability");
  const complaints = page.getByRole("group", { name: "Complaints (% of delivered mail)" });
  await complaints.getByLabel("Warn at").fill("0.5");
  await page.getByRole("button", { name: "Save thresholds" }).click();
  await expect(complaints.getByText("Must be below the stop threshold")).toBeVisible();
  await screenshot(page, "deliverability-error");
  await complaints.getByLabel("Warn at").fill("0.1");
  await complaints.getByLabel("Pause at").fill("0.2");
  await page.getByRole("button", { name: "Save thresholds" }).click();
  await expect(page.getByText("This workspace uses its own thresholds.")).toBeVisible();
  await screenshot(page, "deliverability");
});

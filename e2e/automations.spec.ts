import type { Page } from "@playwright/test";

import type { MailboxMessage } from "@/lib/mail/list-mailbox";

import { expect, test, type Seed } from "./fixtures";
import { inspectScreen } from "./inspect-screen";
import { screenshot } from "./screenshot";
import { signInAs } from "./sign-in-as";

// A welcome series as a sender builds it and as readers get it: made on a topic in the builder
// (send, wait a day, send), saved and activated; two readers sign up and confirm, the first mail
// arrives at once, the clock moves a day and the second arrives, but not for the reader who
// unsubscribed after the first mail: their run ends, and the builder's figures say why.
test.describe.configure({ mode: "serial" });

const owner = { email: "automation-owner@example.com", password: "automation owner pass" };
const reader = "reader.welcome@example.com";
const leaver = "leaver.welcome@example.com";
const FIRST = "Welcome to Product News";
const SECOND = "Two things to try this week";
let workspaceId: string;
let brandId: string;
let publishable: string;
let topicId: string;
let automationPath: string;
let automationId: string;
let page: Page;

test.beforeAll(async ({ browser, seed }) => {
  workspaceId = await seed.workspace("Automation Co", owner.email);
  await seed.user(owner.email, owner.password);
  brandId = await seed.brand(workspaceId, "Automation Co", { postalAddress: "3 Drip Lane, Springfield" });
  await seed.approve(workspaceId);
  topicId = await seed.topic(workspaceId, brandId, "Product News");
  publishable = await seed.key(workspaceId, "publishable");
  page = await browser.newPage();
  await signInAs(page, owner);
});
test.afterAll(() => page.close());

const subjectsTo = async (seed: Seed, address: string) =>
  (await seed.mailTo(address)).filter((mail) => mail.serviceMail === null).map((mail) => mail.subject);

const header = (mail: MailboxMessage, name: string) =>
  Object.entries(mail.headers).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];

test("the list says what an automation is before there is one; a sender creates a welcome series on a topic", async () => {
  await page.goto(`/w/${workspaceId}/automations`);
  await expect(page.getByRole("heading", { name: "Create your first automation" })).toBeVisible();
  await expect(page.getByText(/belongs to one topic and mails only its subscribers/)).toBeVisible();
  await screenshot(page, "automations-empty");

  await page.getByRole("link", { name: "New automation" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "New automation" })).toBeVisible();
  // A trigger's missing setting is refused beside it.
  await page.getByLabel("Starts when").selectOption({ label: "Added to a list" });
  await page.getByLabel("Name", { exact: true }).fill("Welcome series");
  await page.getByRole("button", { name: "Create and add steps" }).click();
  await expect(page.locator("#trigger-list_id-error")).toBeVisible();

  await page.getByLabel("Starts when").selectOption({ label: "Subscription to the topic confirmed" });
  await page.getByLabel("Topic").selectOption({ label: "Product News" });
  await screenshot(page, "automation-new");
  await page.getByRole("button", { name: "Create and add steps" }).click();
  await expect(page).toHaveURL(/\/automations\/aut_/);
  automationPath = new URL(page.url()).pathname;
  automationId = automationPath.split("/").at(-1)!;
  await expect(page.getByRole("heading", { level: 1, name: "Welcome series" })).toBeVisible();
  await expect(page.getByTestId("builder-state")).toHaveText("No steps saved yet: add some, then save.");
});

test("in the builder: send, wait a day, send; a step's problem shows on its node; save makes version 1, then activate", async () => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(automationPath);
  const panel = page.getByRole("dialog");

  await page.getByRole("button", { name: "Add a step after the trigger" }).click();
  await page.getByRole("menuitem", { name: "Send a mail" }).click();
  await expect(panel.getByRole("heading", { name: "Step 1: Send a mail" })).toBeVisible();
  // Written in blocks: the starting document is a letter to type over.
  await expect(panel.getByRole("textbox", { name: "Body" })).toContainText("Write your message here.");
  await panel.getByRole("button", { name: "Done" }).click();

  // Saved without a subject: refused, and the problem is on step 1's node.
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("builder-message")).toHaveText("Check the steps marked in red.");
  const first = page.getByRole("button", { name: "Edit step 1: Send a mail" });
  await expect(first.getByRole("alert")).toBeVisible();
  await first.click();
  await expect(panel.locator("#step-subject-error")).toBeVisible();
  await panel.getByLabel("Subject").fill(FIRST);
  await panel.getByRole("button", { name: "Done" }).click();
  await expect(first.getByRole("alert")).toBeHidden();

  await page.getByRole("button", { name: "Add a step after step 1" }).click();
  await page.getByRole("menuitem", { name: "Wait", exact: true }).click();
  await expect(panel.getByLabel("Wait for", { exact: true })).toHaveValue("1");
  await expect(panel.getByLabel("Wait for: unit")).toHaveValue("days");
  await panel.getByRole("button", { name: "Done" }).click();

  await page.getByRole("button", { name: "Add a step after step 2" }).click();
  await page.getByRole("menuitem", { name: "Send a mail" }).click();
  await panel.getByLabel("Subject").fill(SECOND);
  await panel.getByRole("button", { name: "HTML" }).click();
  await panel.getByLabel("Body (HTML)").fill("<p>Hello {{contact.email}}, here are two things to try.</p>");
  await panel.getByRole("button", { name: "Done" }).click();

  await expect(page.getByRole("button", { name: /^Edit step \d/ })).toHaveCount(3);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("builder-message")).toHaveText("Version 1 saved.");
  await page.getByRole("button", { name: "Activate" }).click();
  await expect(page.getByTestId("automation-status")).toHaveText("Active");
  await expect(page.getByRole("button", { name: "Pause" })).toBeVisible();
});

test("a confirmed signup gets the first mail at once and the second a day later; whoever unsubscribed after the first never gets the second", async ({
  page: visitor,
  playwright,
  seed,
}) => {
  test.setTimeout(240_000);
  for (const email of [reader, leaver]) {
    const response = await visitor.request.post("/v1/subscribe", {
      headers: { authorization: `Bearer ${publishable}` },
      data: { topic_id: topicId, email },
    });
    expect(response.ok()).toBe(true);
  }
  // Each confirms from their mail (a GET of the link, as a person's click).
  for (const email of [reader, leaver]) {
    let link: string | undefined;
    await expect
      .poll(
        async () => {
          link = (await seed.mailTo(email)).flatMap((mail) => mail.links).find((href) => href.includes("/confirm/"));
          return Boolean(link);
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    await visitor.goto(link!);
    await expect(visitor.getByRole("heading", { name: "You are subscribed" })).toBeVisible();
  }

  // The first mail, at once, to both.
  for (const email of [reader, leaver])
    await expect.poll(() => subjectsTo(seed, email), { timeout: 60_000 }).toContain(FIRST);
  expect(await subjectsTo(seed, reader)).not.toContain(SECOND);

  // The leaver unsubscribes from the first mail with one click (its List-Unsubscribe).
  const welcome = (await seed.mailTo(leaver)).find((mail) => mail.subject === FIRST)!;
  const oneClick = header(welcome, "List-Unsubscribe")!.replace(/^<|>$/g, "");
  const cookieless = await playwright.request.newContext();
  expect((await cookieless.post(oneClick, { form: { "List-Unsubscribe": "One-Click" } })).status()).toBe(200);
  await cookieless.dispose();

  // A day passes: every run asleep in the wait is due now. (A run may still be on its way into the wait: move again until the mail comes.)
  await expect
    .poll(
      async () => {
        await seed.pastAutomationWaits(automationId);
        return subjectsTo(seed, reader);
      },
      { timeout: 90_000, intervals: [2_000] },
    )
    .toContain(SECOND);

  // The leaver's run reached the second send, found them unsubscribed and ended there.
  await page.goto(automationPath);
  const figures = page.getByTestId("automation-figures");
  await expect(figures.getByTestId("exited-by-reason")).toHaveText("Left early: 1 unsubscribed from the topic.", {
    timeout: 30_000,
  });
  // Their confirmation and the topic's welcome aside: the first mail of the series, never the second.
  expect((await subjectsTo(seed, leaver)).filter((subject) => [FIRST, SECOND].includes(subject))).toEqual([FIRST]);
  await expect(figures).toContainText(/Entered\s*2/);
  await expect(figures).toContainText(/Completed\s*1/);
  await expect(
    page.getByRole("button", { name: "Edit step 3: Send a mail" }).getByTestId("step-figures"),
  ).toContainText("1 sent");
  await screenshot(page, "automation-builder-figures");
  for (const scheme of ["light", "dark"] as const) {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({
      path: `e2e/screenshots/automation-builder-figures-phone${scheme === "dark" ? "-dark" : ""}.png`,
      fullPage: true,
    });
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto(`/w/${workspaceId}/automations`);
  const row = page.getByTestId("automation-row");
  await expect(row).toContainText("Welcome series");
  await expect(row).toContainText("Active");
  await screenshot(page, "automations-list");
});

test("the automation screens fit a phone, read in both themes and raise no console error", async ({ browser }) => {
  // Three screens, each loaded afresh four times (two widths, two themes): minutes on a busy two-core machine.
  test.setTimeout(360_000);
  const context = await browser.newContext({ storageState: await page.context().storageState() });
  await inspectScreen(context, `/w/${workspaceId}/automations`, "automations");
  await inspectScreen(context, `/w/${workspaceId}/automations/new`, "automation-new");
  await inspectScreen(context, automationPath, "automation-builder");
  await context.close();
});

// A trial series driven by the sender's own systems: it starts on a custom event sent to POST /v1/events,
// mails at once, waits a day, then branches on whether a `purchased` event came meanwhile. The person
// who bought gets the yes arm's mail and never the no arm's.
const TRIAL_FIRST = "Your trial has started";
const BOUGHT = "Thanks for buying: getting the most from Pro";
const NOT_BOUGHT = "Your trial ends soon";

test("an event-triggered series mails when the event comes in, and after the wait follows the arm that the person's purchase decides", async ({
  browser,
  request,
  seed,
}) => {
  // Built in the browser, walked through the API, the clock moved, then its screens loaded in both widths and themes.
  test.setTimeout(480_000);
  const trialTopic = await seed.topic(workspaceId, brandId, "Trial tips", { confirmation: false });
  const trialist = "trialist.event@example.com";
  await seed.contact(workspaceId, trialist, { topicIds: [trialTopic] });
  const secret = await seed.key(workspaceId, "secret");

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/w/${workspaceId}/automations/new`);
  await page.getByLabel("Name", { exact: true }).fill("Trial nudges");
  await page.getByLabel("Starts when").selectOption({ label: "A custom event (POST /v1/events)" });
  await page.getByLabel("Topic").selectOption({ label: "Trial tips" });
  await page.getByLabel("Event name").fill("trial_started");
  await page.getByRole("button", { name: "Create and add steps" }).click();
  await expect(page).toHaveURL(/\/automations\/aut_/);
  const trialPath = new URL(page.url()).pathname;
  const trialId = trialPath.split("/").at(-1)!;
  await expect(page.getByRole("heading", { level: 1, name: "Trial nudges" })).toBeVisible();

  // Send, wait a day, branch on `purchased` with a send in each arm.
  const panel = page.getByRole("dialog");
  const addSend = async (place: string, subject: string) => {
    await page.getByRole("button", { name: place }).click();
    await page.getByRole("menuitem", { name: "Send a mail" }).click();
    await panel.getByLabel("Subject").fill(subject);
    await panel.getByRole("button", { name: "Done" }).click();
  };
  await addSend("Add a step after the trigger", TRIAL_FIRST);
  await page.getByRole("button", { name: "Add a step after step 1" }).click();
  await page.getByRole("menuitem", { name: "Wait", exact: true }).click();
  await panel.getByRole("button", { name: "Done" }).click();
  await page.getByRole("button", { name: "Add a step after step 2" }).click();
  await page.getByRole("menuitem", { name: "Branch on a condition" }).click();
  await expect(panel.getByRole("heading", { name: "Step 3: Branch on a condition" })).toBeVisible();
  await expect(panel.getByLabel("Condition")).toHaveValue("event");
  await panel.getByLabel("Event name").fill("purchased");
  await panel.getByRole("button", { name: "Done" }).click();
  await addSend("Add a step to the yes arm of step 3", BOUGHT);
  await addSend("Add a step to the no arm of step 3", NOT_BOUGHT);

  // Pre-order numbers: the yes arm's send is step 4, the no arm's step 5.
  await expect(page.getByRole("button", { name: /^Edit step \d/ })).toHaveCount(5);
  await expect(page.getByRole("button", { name: "Edit step 4: Send a mail" })).toContainText(BOUGHT);
  await expect(page.getByRole("button", { name: "Edit step 5: Send a mail" })).toContainText(NOT_BOUGHT);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("builder-message")).toHaveText("Version 1 saved.");
  await page.getByRole("button", { name: "Activate" }).click();
  await expect(page.getByTestId("automation-status")).toHaveText("Active");

  // The sender's systems report the trial: the first mail comes at once.
  const headers = { authorization: `Bearer ${secret}` };
  const started = await request.post("/v1/events", { headers, data: { email: trialist, name: "trial_started" } });
  expect(started.status()).toBe(202);
  await expect.poll(() => subjectsTo(seed, trialist), { timeout: 60_000 }).toContain(TRIAL_FIRST);
  expect(await subjectsTo(seed, trialist)).not.toContain(BOUGHT);

  // They buy during the wait; a day passes (move again until the run, perhaps still on its way into the wait, wakes).
  const bought = await request.post("/v1/events", {
    headers,
    data: { email: trialist, name: "purchased", properties: { plan: "pro" } },
  });
  expect(bought.status()).toBe(202);
  await expect
    .poll(
      async () => {
        await seed.pastAutomationWaits(trialId);
        return subjectsTo(seed, trialist);
      },
      { timeout: 90_000, intervals: [2_000] },
    )
    .toContain(BOUGHT);

  // Their run walked the yes arm to the end: the no arm's mail can never come.
  await page.goto(trialPath);
  const figures = page.getByTestId("automation-figures");
  await expect(figures).toContainText(/Completed\s*1/, { timeout: 30_000 });
  expect(await subjectsTo(seed, trialist)).not.toContain(NOT_BOUGHT);
  const branchFigures = page
    .getByRole("button", { name: "Edit step 3: Branch on a condition" })
    .getByTestId("step-figures");
  await expect(branchFigures).toContainText("1 yes");
  await expect(branchFigures).toContainText("0 no");
  const firstFigures = page.getByRole("button", { name: "Edit step 1: Send a mail" }).getByTestId("step-figures");
  await expect(firstFigures).toContainText("1 sent");
  await expect(firstFigures).toContainText("0 opened");
  await expect(firstFigures).toContainText("0 clicked");
  await expect(
    page.getByRole("button", { name: "Edit step 5: Send a mail" }).getByTestId("step-figures"),
  ).toContainText("0 sent");

  // The builder with its branch drawn, at desktop and phone width in both themes: no console error, no sideways scroll.
  await screenshot(page, "automation-builder-branch");
  const context = await browser.newContext({ storageState: await page.context().storageState() });
  await inspectScreen(context, trialPath, "automation-builder-branch");
  await context.close();
});

test("a sender changes the trigger, re-entry and exit condition afterwards in the builder's settings; a problem shows beside its field", async () => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto(automationPath);
  const panel = page.getByRole("dialog");
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  await expect(panel.getByRole("heading", { name: "Settings" })).toBeVisible();
  await expect(panel.getByTestId("automation-settings-now")).toContainText("A person enters once.");
  await expect(panel.getByLabel("Starts when")).toHaveValue("topic_confirmed");

  // Refused beside their fields, and nothing saved.
  await panel.getByLabel("Starts when").selectOption({ label: "Added to a list" });
  await panel.getByRole("button", { name: "Save settings" }).click();
  await expect(panel.getByTestId("settings-message")).toHaveText("Check the highlighted fields.");
  await expect(panel.locator("#trigger-list_id-error")).toBeVisible();
  await panel.getByLabel("Starts when").selectOption({ label: "Subscription to the topic confirmed" });
  await panel.getByLabel("Exit condition").selectOption({ label: "A custom event was seen" });
  await panel.getByLabel("Event name").fill("bought elsewhere");
  await panel.getByRole("button", { name: "Save settings" }).click();
  await expect(panel.locator("#exit-condition-event-error")).toBeVisible();
  // At a phone's width the refusal sits beside its field, with Save settings below it.
  await page.setViewportSize({ width: 390, height: 844 });
  await panel.getByRole("button", { name: "Save settings" }).scrollIntoViewIfNeeded();
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({
      path: `e2e/screenshots/automation-settings-refused-phone${scheme === "dark" ? "-dark" : ""}.png`,
    });
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1280, height: 900 });

  await panel.getByLabel("Event name").fill("bought.elsewhere");
  await panel.getByLabel("People may enter again after their run ended").check();
  await panel.getByLabel("After (days)").fill("30");
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `e2e/screenshots/automation-settings${scheme === "dark" ? "-dark" : ""}.png` });
  }
  await page.setViewportSize({ width: 390, height: 844 });
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({
      path: `e2e/screenshots/automation-settings-phone${scheme === "dark" ? "-dark" : ""}.png`,
    });
  }
  await page.emulateMedia({ colorScheme: "light" });
  // Nothing on the panel runs past a phone's width.
  expect(await panel.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
  await panel.getByRole("button", { name: "Save settings" }).click();
  await expect(panel).toBeHidden();

  // Saved, and read back as saved: the page loaded again, the panel opens on the new settings.
  await page.reload();
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  const now = panel.getByTestId("automation-settings-now");
  await expect(now).toContainText("A person may enter again 30 days after their run ended.");
  await expect(now).toContainText("Exit condition:");
  await expect(panel.getByLabel("After (days)")).toHaveValue("30");
  await expect(panel.getByLabel("Event name")).toHaveValue("bought.elsewhere");
  await panel.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByTestId("automation-status")).toHaveText("Active");
  await page.setViewportSize({ width: 1280, height: 900 });
});

import type { Page } from "@playwright/test";

import { expect, test } from "./fixtures";
import { screenshot } from "./screenshot";
import { signInAs } from "./sign-in-as";

// A sender writes a campaign in the dashboard, sees who will get it and why the others will not,
// previews it as a subscriber, sends it and watches it reach "sent"; the mail arrives filled in.
test.describe.configure({ mode: "serial" });

const owner = { email: "campaigns-owner@example.com", password: "campaigns owner pass" };
// A 1×1 PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);
let workspaceId: string;
let page: Page;

test.beforeAll(async ({ browser, seed }) => {
  workspaceId = await seed.workspace("Campaign Co", owner.email);
  await seed.user(owner.email, owner.password);
  const brand = await seed.brand(workspaceId, "Campaign Co");
  await seed.approve(workspaceId); // after the brand: approval clears the workspace's brands
  const topicIds = [await seed.topic(workspaceId, brand, "Monthly News", { confirmation: false })];
  await seed.contact(workspaceId, "ada@readers.example", { firstName: "Ada", topicIds });
  await seed.contact(workspaceId, "grace@readers.example", { firstName: "Grace", topicIds });
  await seed.contact(workspaceId, "nameless@readers.example", { topicIds });
  page = await browser.newPage();
  await signInAs(page, owner);
});
test.afterAll(() => page.close());

test("campaigns: written in blocks (heading, text with a merge tag, a button, an image); an unknown merge tag in HTML is refused next to the body and nothing is saved", async () => {
  await page.goto(`/w/${workspaceId}/campaigns`);
  await expect(page.getByRole("heading", { name: "Write your first campaign" })).toBeVisible();
  await screenshot(page, "campaigns-empty");
  await page.getByRole("link", { name: "New campaign" }).first().click();
  await page.getByLabel("Campaign name").fill("April news");
  await page.getByLabel("Subject").fill("Hello ");
  await page.getByRole("button", { name: "Merge tag in subject" }).click();
  await page.getByRole("menuitem", { name: "contact.first_name" }).click();
  await expect(page.getByLabel("Subject")).toHaveValue("Hello {{contact.first_name}}");
  await page.getByLabel("Preview text (optional)").fill("Spring has arrived");

  const body = page.getByRole("textbox", { name: "Body" });
  // One click places the caret in the headline: typing changes it, and the logo above stays.
  await body.getByText("A headline").click();
  await page.keyboard.press("End");
  await page.keyboard.press("Shift+Home");
  await page.keyboard.type("April");
  await expect(body.getByRole("heading", { name: "April", exact: true })).toBeVisible();
  await expect(body.getByText("Brand logo")).toBeVisible();
  await body.getByText("Write your message here.").click({ clickCount: 3 });
  await page.keyboard.type("Spring is here, and so is our sale.");
  await page.keyboard.press("Enter");
  await page.keyboard.type("See you soon, ");
  // After the tag, the caret is back in the body, after it.
  await page.getByRole("button", { name: "Merge tag in body" }).click();
  await page.getByRole("menuitem", { name: "contact.first_name" }).click();
  await page.keyboard.type("!");
  await expect(body).toContainText("See you soon, {{contact.first_name}}!");
  // No default values: the sender sees who lacks each tag before sending.
  await expect(page.getByRole("list", { name: "Merge tags used" })).toContainText(
    "1 of 3 subscribers has no value and will be skipped.",
  );
  const blocks = page.getByRole("toolbar", { name: "Blocks" });
  await blocks.getByRole("button", { name: "Button" }).click();
  await page.getByLabel("Button text").fill("Shop the sale");
  await page.getByLabel("Address").fill("https://campaign-co.example/sale");
  await page.getByRole("button", { name: "Insert button" }).click();
  await blocks.getByRole("button", { name: "Image" }).click();
  // Uploaded, it is stored by the service and gets a public address.
  await page.getByLabel(/Or upload/).setInputFiles({ name: "spring.png", mimeType: "image/png", buffer: PNG });
  await expect(page.getByLabel("Image address")).toHaveValue(/\/i\/[0-9A-Za-z]{32}$/);
  await page.getByLabel("Alternative text").fill("Spring flowers");
  await page.getByRole("button", { name: "Insert image" }).click();
  await expect(body.getByRole("img", { name: "Spring flowers" })).toBeVisible();
  await screenshot(page, "campaign-new-blocks");

  // The same rule as the API: an unknown tag is refused next to the field holding it.
  await page.getByRole("button", { name: "HTML", exact: true }).click();
  await page.getByLabel("Body (HTML)").fill("<p>Your favourite: {{contact.favourite}}</p>");
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByLabel("Body (HTML)")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("{{contact.favourite}} is not a merge tag", { exact: false })).toBeVisible();
  await screenshot(page, "campaign-new-error");

  await page.getByRole("button", { name: "Blocks", exact: true }).click();
  await expect(body.getByText("Spring is here, and so is our sale.")).toBeVisible();
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "April news" })).toBeVisible();
  await expect(page.getByText("Draft", { exact: true })).toBeVisible();
});

test("campaigns: the exclusion preview names who is left out and why; the preview shows the mail as a subscriber gets it; a test goes to a member", async ({
  seed,
}) => {
  await expect(page.getByTestId("audience-recipients")).toHaveText("2");
  const leftOut = page.getByRole("table", { name: "Left out" });
  await expect(leftOut.getByRole("row", { name: /No value for \{\{contact.first_name\}\}/ })).toContainText(
    "nameless@readers.example",
  );
  await expect(page.getByTestId("preview-subject")).toHaveText("Hello Ada");
  const frame = page.frameLocator('iframe[title="Mail preview"]');
  await expect(frame.getByRole("heading", { name: "April" })).toBeVisible();
  await expect(frame.getByText("See you soon, Ada!")).toBeVisible();
  await expect(frame.getByRole("link", { name: "Shop the sale" })).toHaveAttribute(
    "href",
    "https://campaign-co.example/sale",
  );
  // The uploaded image loads from its public address.
  await expect
    .poll(() =>
      frame.getByRole("img", { name: "Spring flowers" }).evaluate((image: HTMLImageElement) => image.naturalWidth),
    )
    .toBe(1);
  await expect(frame.getByRole("link", { name: "Unsubscribe" })).toBeVisible();
  // SpamAssassin's opinion of the mail as it would be sent streams in above the preview.
  const spamScore = page.getByRole("region", { name: "Spam score" });
  await expect(spamScore.getByTestId("spam-score")).toHaveText(/^-?\d+\.\d · (Low|Borderline|Spam)$/);
  await expect(spamScore.getByRole("list", { name: "Rules hit" })).toContainText("HTML_MESSAGE");
  await screenshot(page, "campaign-draft");
  await page.getByRole("button", { name: "Mobile" }).click();
  await expect(page.getByRole("button", { name: "Mobile" })).toHaveAttribute("aria-pressed", "true");

  // A test goes to a member (the owner here), marked as a test, and counts nowhere.
  await page.getByRole("button", { name: "Send test" }).click();
  const testDialog = page.getByRole("dialog", { name: "Send a test" });
  await expect(testDialog.getByLabel("Send to")).toHaveValue(owner.email);
  await testDialog.getByRole("button", { name: "Send test" }).click();
  await expect(page.getByText(`Test sent to ${owner.email}.`)).toBeVisible();
  // The owner is no contact: the tag's value is a sample one, and the sender is told so.
  await expect(page.getByText("Sample values filled in for {{contact.first_name}} (Ada)")).toBeVisible();
  await expect
    .poll(async () => (await seed.mailTo(owner.email)).map((mail) => mail.subject))
    .toContain("[Test] Hello Ada");

  await page.getByLabel("Preview as").fill("nameless@readers.example");
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page.getByText("nameless@readers.example would not get this mail")).toBeVisible();
});

test("campaigns: send now asks first, then the progress reaches sent without a reload and the mail arrives filled in", async ({
  seed,
}) => {
  await page.getByRole("button", { name: "Send now" }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toContainText("It goes to 2 people now.");
  await confirm.getByRole("button", { name: "Send now" }).click();
  await expect(page.getByRole("progressbar", { name: "Sending progress" })).toBeVisible();
  await expect(page.getByText("Sent", { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("progress-accepted")).toHaveText("2");
  await expect(page.getByTestId("progress-not-sent")).toHaveText("1");
  await expect(page.getByRole("table", { name: "Recipients not sent to" })).toContainText(
    "No value for {{contact.first_name}}",
  );
  await expect(page.getByRole("button", { name: "Send now" })).toHaveCount(0);
  await expect(page.getByText("Finished: where each recipient's mail went.")).toBeVisible();
  await screenshot(page, "campaign-sent");

  const [mail] = await seed.mailTo("grace@readers.example");
  expect(mail?.subject).toBe("Hello Grace");
  expect(mail?.text).toContain("See you soon, Grace!");
  // The button's link goes through click tracking; the consent links do not.
  expect(mail?.links.some((link) => link.includes("/t/c/"))).toBe(true);
  expect(mail?.links.some((link) => link.includes("/unsubscribe/"))).toBe(true);
  await page.goto(`/w/${workspaceId}/campaigns`);
  await expect(page.getByRole("row", { name: /April news/ })).toContainText("Sent");
});

test("campaigns: the report counts the open, the click and the unsubscribe of the mail, as the reports API does", async ({
  seed,
}) => {
  // Grace opens the mail (its pixel loads) and follows the button's tracked link.
  const [mail] = await seed.mailTo("grace@readers.example");
  const pixel = /<img src="([^"]*\/t\/o\/[^"]+)"/.exec(mail!.html)![1]!.replaceAll("&amp;", "&");
  expect((await page.request.get(pixel)).status()).toBe(200);
  const click = mail!.links.find((link) => link.includes("/t/c/"))!;
  const followed = await page.request.get(click, { maxRedirects: 0 });
  expect(followed.headers().location).toBe("https://campaign-co.example/sale");

  // Then leaves through the mail's unsubscribe link.
  await page.goto(mail!.links.find((link) => link.includes("/unsubscribe/"))!);
  await page.getByRole("button", { name: "Unsubscribe", exact: true }).click();
  await expect(page.getByRole("heading", { name: "You are unsubscribed from Monthly News" })).toBeVisible();

  await page.goto(`/w/${workspaceId}/campaigns`);
  await page.getByRole("link", { name: "April news" }).click();
  await page.getByRole("link", { name: "Report", exact: true }).click();
  await expect(page.getByTestId("report-opened")).toHaveText("1");
  await expect(page.getByTestId("report-clicked")).toHaveText("1");
  // The local mailbox reports no deliveries: no open or click rate, rather than a 0 % beside an open.
  await expect(page.getByTestId("report-opened-rate")).toHaveText("no rate: none delivered");
  await expect(page.getByTestId("report-bounced-rate")).toHaveText("0 %");
  await expect(page.getByTestId("report-unsubscribed")).toHaveText("1");
  await expect(page.getByRole("table", { name: "Top links" })).toContainText("https://campaign-co.example/sale");
  await expect(page.getByRole("img", { name: /Opens and clicks per hour/ })).toBeVisible();
  await screenshot(page, "campaign-report");

  const key = await seed.key(workspaceId, "secret");
  const reports = await page.request.get("/v1/reports/campaigns", { headers: { authorization: `Bearer ${key}` } });
  const [row] = (await reports.json()).data;
  expect([row.opened, row.clicked, row.unsubscribed, row.recipients]).toEqual([1, 1, 1, 3]);
  await expect(page.getByTestId("report-recipients")).toHaveText(String(row.recipients));

  // The workspace's reports: the summary and the activity series, for every brand or one.
  await page.getByRole("navigation", { name: "Workspace" }).getByRole("link", { name: "Reports" }).click();
  await expect(page.getByTestId("activity-opens")).toHaveText("1");
  await expect(page.getByTestId("activity-clicks")).toHaveText("1");
  await expect(page.getByTestId("activity-campaigns-sent")).toHaveText("1");
  await page.getByLabel("Period", { exact: true }).selectOption("week");
  await page.getByLabel("Brand", { exact: true }).selectOption({ label: "Campaign Co" });
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/interval=week/);
  await expect(page.getByTestId("activity-clicks")).toHaveText("1");
  await screenshot(page, "reports");
  await page.goto(`/w/${workspaceId}/campaigns`);
});

test("campaigns: duplicating a sent campaign makes an editable draft, which saves itself", async () => {
  await page.getByRole("link", { name: "April news" }).click();
  await page.getByRole("button", { name: "Duplicate" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Copy of April news" })).toBeVisible();
  await page.getByRole("link", { name: "Edit" }).click();
  // A draft saves itself a moment after the last change.
  await page.getByLabel("Subject").fill("May news for {{contact.first_name}}");
  await expect(page.getByRole("status").filter({ hasText: "All changes saved" })).toBeVisible();
  await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Copy of April news" }).click();
  await expect(page.getByTestId("preview-subject")).toHaveText("May news for Ada");
});

test("campaigns: a sent campaign is resent once to those who did not open it, after the wait chosen, with a new subject", async () => {
  await page.goto(`/w/${workspaceId}/campaigns`);
  await page.getByRole("link", { name: "April news", exact: true }).click();
  await page.getByRole("button", { name: "Resend to non-openers" }).click();
  const dialog = page.getByRole("dialog");
  // The subject is required, and its error stands beside it.
  await dialog.getByRole("button", { name: "Create the resend" }).click();
  await expect(dialog.getByText(/must not be empty/i)).toBeVisible();
  await dialog.getByLabel("New subject").fill("Did you miss this, {{contact.first_name}}?");
  await dialog.getByLabel("Send it").selectOption("custom");
  await dialog.getByLabel("Hours after the original").fill("500");
  await dialog.getByRole("button", { name: "Create the resend" }).click();
  await expect(dialog.getByText(/wait at most 336 hours/i)).toBeVisible();
  await dialog.getByLabel("Hours after the original").fill("48");
  await screenshot(page, "campaign-resend-dialog");
  await dialog.getByRole("button", { name: "Create the resend" }).click();

  // The resend's own page: scheduled two days after the original, to Ada, who has not opened it. Grace
  // has unsubscribed since; the address without a first name was never sent the original.
  await expect(page.getByRole("heading", { level: 1, name: "April news (non-openers)" })).toBeVisible();
  await expect(page.getByTestId("resend-of")).toContainText("Resend of April news to those who did not open");
  await expect(page.getByText("Scheduled", { exact: true })).toBeVisible();
  await expect(page.getByTestId("audience-recipients")).toHaveText("1");
  const leftOut = page.getByRole("table", { name: "Left out" });
  await expect(leftOut).toContainText("Unsubscribed");
  await expect(leftOut).toContainText("Did not get the campaign this resends");
  await screenshot(page, "campaign-resend");

  // Once made, the original links to its resend instead of offering another.
  await page.getByTestId("resend-of").getByRole("link", { name: "April news" }).click();
  await expect(page.getByTestId("resend-link")).toContainText("April news (non-openers)");
  await expect(page.getByRole("button", { name: "Resend to non-openers" })).toHaveCount(0);
});

test("templates: a campaign's body saved as a template starts a new campaign", async () => {
  await page.goto(`/w/${workspaceId}/campaigns`);
  await page.getByRole("link", { name: "April news", exact: true }).click();
  await page.getByRole("button", { name: "Save as template" }).click();
  await page.getByLabel("Template name").fill("Monthly layout");
  await page.getByRole("button", { name: "Save template" }).click();
  await expect(page.getByText("Saved as the template Monthly layout.")).toBeVisible();

  await page.goto(`/w/${workspaceId}/campaigns/new`);
  await page.getByLabel("Start from", { exact: true }).selectOption({ label: "Monthly layout" });
  await page.getByRole("button", { name: "Use", exact: true }).click();
  await expect(
    page.getByRole("textbox", { name: "Body" }).getByText("Spring is here, and so is our sale."),
  ).toBeVisible();
});

test("templates screen: a saved template is previewed, renamed, edited in the block editor, duplicated, deleted after a confirm, and used in a new campaign", async () => {
  await page.goto(`/w/${workspaceId}`);
  await page.getByRole("link", { name: "Templates", exact: true }).click();
  await page.getByRole("link", { name: "Monthly layout", exact: true }).click();
  const preview = page.frameLocator('iframe[title="Mail preview"]');
  await expect(preview.getByText("Spring is here, and so is our sale.")).toBeVisible();
  await expect(preview.getByRole("link", { name: "Unsubscribe" })).toBeVisible();
  await screenshot(page, "template-preview");

  await page.getByRole("button", { name: "Rename" }).click();
  await page.getByLabel("Template name").fill("");
  await page.getByRole("button", { name: "Save name" }).click();
  await expect(page.getByText("Must not be empty")).toBeVisible();
  await page.getByLabel("Template name").fill("Spring layout");
  await page.getByRole("button", { name: "Save name" }).click();
  await expect(page.getByRole("heading", { name: "Spring layout" })).toBeVisible();

  await page.getByRole("link", { name: "Edit", exact: true }).click();
  const body = page.getByRole("textbox", { name: "Body" });
  await body.getByText("Spring is here, and so is our sale.").click({ clickCount: 3 });
  await page.keyboard.type("Summer is coming.");
  await page.getByRole("button", { name: "Save template" }).click();
  await expect(page.getByRole("heading", { name: "Spring layout" })).toBeVisible();
  await expect(preview.getByText("Summer is coming.")).toBeVisible();

  await page.getByRole("button", { name: "Duplicate" }).click();
  await expect(page.getByRole("heading", { name: "Copy of Spring layout" })).toBeVisible();
  await page.getByRole("button", { name: "Delete" }).click();
  await page.getByRole("button", { name: "Delete template" }).click();
  await expect(page.getByRole("heading", { name: "Templates", exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "Copy of Spring layout" })).toHaveCount(0);
  await screenshot(page, "templates");

  await page.getByRole("link", { name: "Use Spring layout in a new campaign" }).click();
  await expect(page.getByLabel("Start from", { exact: true })).toHaveValue(/^tpl_/);
  await expect(page.getByRole("textbox", { name: "Body" }).getByText("Summer is coming.")).toBeVisible();
});

test("image uploads: only from the dashboard's own pages, by a signed-in member, images only", async ({
  playwright,
  baseURL,
}) => {
  const upload = `/api/dashboard/w/${workspaceId}/images`;
  const crossSite = await page.request.post(upload, {
    data: PNG,
    headers: { origin: "https://evil.example", "content-type": "image/png" },
  });
  expect(crossSite.status()).toBe(403);
  expect((await crossSite.json()).error).toMatchObject({ code: "cross_site_request" });
  const notAnImage = await page.request.post(upload, {
    data: Buffer.from("<svg onload=alert(1)></svg>"),
    headers: { origin: baseURL!, "content-type": "image/png" },
  });
  expect(notAnImage.status()).toBe(400);
  expect((await notAnImage.json()).error).toMatchObject({ code: "validation_failed", param: "file" });
  const anonymous = await playwright.request.newContext({ baseURL });
  try {
    const signedOut = await anonymous.post(upload, {
      data: PNG,
      headers: { origin: baseURL!, "content-type": "image/png" },
    });
    expect(signedOut.status()).toBe(401);
  } finally {
    await anonymous.dispose();
  }
});

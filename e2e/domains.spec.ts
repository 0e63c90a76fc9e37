import { startDnsServer } from "@/lib/testing/dns-server";

import { E2E_DNS_PORT } from "../playwright.config";
import { expect, test } from "./fixtures";
import { inspectScreen } from "./inspect-screen";
import { screenshot } from "./screenshot";
import { signInAs } from "./sign-in-as";

// A sender adds a domain, is shown its records, publishes them (to a real DNS server on loopback that the
// app is pointed at) and sees the domain become ready, with each record's state along the way.
test.describe.configure({ mode: "serial" });

const owner = { email: "domains-owner@example.com", password: "domains owner pass" };
let workspace: string;
let dns: Awaited<ReturnType<typeof startDnsServer>>;

test.beforeAll(async ({ seed }) => {
  workspace = await seed.workspace("Domains Co", owner.email);
  await seed.user(owner.email, owner.password);
  await seed.brand(workspace, "Domains Co", { senderEmail: "news@mail.domains-co.test" });
  dns = await startDnsServer(E2E_DNS_PORT);
});

test.afterAll(async () => {
  await dns?.close();
});

test("add a domain, publish its records, check: each record's state, then ready, and the overview's step is done", async ({
  page,
}) => {
  await signInAs(page, owner);
  await page.goto(`/w/${workspace}/domains`);
  await expect(page.getByRole("heading", { name: "Add your sending domain" })).toBeVisible();
  await page.getByRole("button", { name: "Add domain" }).first().click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Domain").fill("not a domain");
  await dialog.getByRole("button", { name: "Add domain" }).click();
  await expect(dialog.getByText("Must be a domain name such as mail.example.com.")).toBeVisible();
  await dialog.getByLabel("Domain").fill("mail.domains-co.test");
  await dialog.getByRole("button", { name: "Add domain" }).click();

  await expect(page.getByRole("heading", { level: 1, name: "mail.domains-co.test" })).toBeVisible();
  await expect(page.getByText("Waiting for DNS").first()).toBeVisible();
  const rows = page.getByRole("row").filter({ has: page.getByText(/^(Missing|Found|Wrong value)$/) });
  await expect(rows).toHaveCount(3);
  const records = await rows.evaluateAll((elements) =>
    elements.map((row) => {
      const codes = row.querySelectorAll("code");
      return { name: codes[0]!.textContent!, value: codes[1]!.textContent! };
    }),
  );
  // SPF wrong at first, the others published as shown.
  dns.set(records[0]!.name, [{ type: "TXT", data: ["v=spf1 -all"] }]);
  for (const record of records.slice(1)) dns.set(record.name, [{ type: "TXT", data: [record.value] }]);
  await page.getByRole("button", { name: "Check DNS now" }).click();
  await expect(page.getByTestId("record-spf")).toContainText("Wrong value");
  await expect(page.getByTestId("record-spf")).toContainText("Found instead: v=spf1 -all");
  await expect(page.getByTestId("record-dkim")).toContainText("Found");
  // The DMARC record is published; not ready yet, the domain's own signature waits and SPF fails on its record.
  await expect(page.getByTestId("alignment-policy")).toHaveAttribute("data-status", "pass");
  await expect(page.getByTestId("alignment-policy")).toContainText("p=none from _dmarc.mail.domains-co.test");
  await expect(page.getByTestId("alignment-dkim")).toHaveAttribute("data-status", "waiting");
  await expect(page.getByTestId("alignment-spf")).toHaveAttribute("data-status", "fail");
  await expect(page.getByTestId("alignment-spf")).toContainText("To fix: Publish the SPF record above");
  await expect(page.getByTestId("dmarc-verdict")).toHaveText("DMARC does not pass yet: see below.");
  await screenshot(page, "domain-records");

  dns.set(records[0]!.name, [{ type: "TXT", data: [records[0]!.value] }]);
  await page.getByRole("button", { name: "Check DNS now" }).click();
  // "Found instead: …" of the first check also reads "Found": wait for the second check's answer itself.
  await expect(page.getByTestId("record-spf")).not.toContainText("Wrong value");
  await expect(page.getByTestId("record-spf")).toContainText("Found");
  await expect(page.getByText("Ready", { exact: true }).first()).toBeVisible();
  await expect(page.getByTestId("alignment-dkim")).toHaveAttribute("data-status", "pass");
  await expect(page.getByTestId("alignment-spf")).toHaveAttribute("data-status", "pass");
  await expect(page.getByTestId("dmarc-verdict")).toHaveText("DMARC passes on DKIM and SPF.");
  await expect(page.getByTestId("alignment-card")).toContainText(`Feedback-ID: campaign:brand:${workspace}:`);
  await inspectScreen(page.context(), new URL(page.url()).pathname, "domain-ready");

  await page.goto(`/w/${workspace}/domains`);
  await expect(page.getByRole("row", { name: /mail\.domains-co\.test/ })).toContainText("Ready");
  await screenshot(page, "domains");
  await page.goto(`/w/${workspace}`);
  const step = page
    .getByRole("list", { name: "Setup checklist" })
    .getByRole("listitem")
    .filter({ hasText: "Verify a sending domain" });
  await expect(step.getByLabel("Done")).toBeVisible();
  // A ready domain alone does not open the sandbox: the brand and the workspace are still in review.
  await expect(page.getByText("Sandbox: campaigns reach only your verified addresses")).toBeVisible();
});

test("warm-up: a new domain starts it, its page shows the stage and today's cap and use, and it can be turned off and on", async ({
  page,
  context,
}) => {
  await signInAs(page, owner);
  await page.goto(`/w/${workspace}/domains`);
  await page.getByRole("link", { name: "mail.domains-co.test" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "mail.domains-co.test" })).toBeVisible();
  const card = page.getByTestId("domain-warm-up");
  await expect(card).toContainText("Stage 1 of 9");
  await expect(card).toContainText("Today: 0 of 50 sent.");
  await expect(card.getByRole("progressbar", { name: "Used of today's cap" })).toBeVisible();
  await expect(card).toContainText("Next: 100 a day");
  await inspectScreen(context, new URL(page.url()).pathname, "domain-warm-up");

  await card.getByRole("button", { name: "Turn warm-up off" }).click();
  await expect(card).toContainText("Off: campaigns from mail.domains-co.test send without a daily cap.");
  await card.getByRole("button", { name: "Turn warm-up on" }).click();
  await expect(card).toContainText("Today: 0 of 50 sent.");
});

test("the sandbox: members count, an added address counts once its owner confirms the mailed link; reviews done, the overview says the workspace sends to anyone", async ({
  page,
  seed,
}) => {
  await signInAs(page, owner);
  await page.goto(`/w/${workspace}/verified-addresses`);
  await expect(
    page.getByText(
      "mails only these addresses until it has an approved brand and the service's review of the workspace.",
    ),
  ).toBeVisible();
  await expect(page.getByRole("row", { name: new RegExp(owner.email) })).toContainText("A member's sign-in address");
  await page.getByRole("button", { name: "Add address" }).click();
  await page.getByRole("dialog").getByLabel("Email address").fill("seed.inbox@example.com");
  await page.getByRole("dialog").getByRole("button", { name: "Send confirmation link" }).click();
  await expect(page.getByRole("row", { name: /seed\.inbox@example\.com/ })).toContainText(
    "Waiting for its owner to confirm",
  );

  let link = "";
  await expect(async () => {
    const [mail] = await seed.mailTo("seed.inbox@example.com");
    link = mail?.links.find((candidate) => candidate.includes("/verify-address/")) ?? "";
    expect(link).not.toBe("");
  }).toPass({ timeout: 20_000 });
  await page.goto(link);
  await page.getByRole("button", { name: "Confirm seed.inbox@example.com" }).click();
  await expect(page.getByRole("status")).toContainText("may now send its campaigns to seed.inbox@example.com");
  await page.goto(`/w/${workspace}/verified-addresses`);
  await expect(page.getByRole("row", { name: /seed\.inbox@example\.com/ })).toContainText("Verified");
  await screenshot(page, "verified-addresses");

  // The sender cannot review themselves.
  expect((await page.goto("/operator"))!.status()).toBe(404);

  // An operator of the service reviews the brand and the workspace: one who is not a member of it, as the
  // service has other operators (a member of the workspace reviews it only where they are the only one).
  const reviewersWorkspace = await seed.workspace("Service Team", "reviewer@service.example");
  await seed.operator("reviewer@service.example", "reviewer pass phrase", reviewersWorkspace);
  await page.context().clearCookies();
  await signInAs(page, { email: "reviewer@service.example", password: "reviewer pass phrase" });
  await page.goto(`/w/${reviewersWorkspace}`);
  // The operator's extra link keeps the sidebar within a laptop's screen: nothing to scroll to.
  await page.setViewportSize({ width: 1280, height: 800 });
  const sidebar = page.locator("aside");
  expect(await sidebar.evaluate((aside) => aside.scrollHeight - aside.clientHeight)).toBeLessThanOrEqual(0);
  await screenshot(page, "operator-sidebar");
  await page.getByRole("link", { name: "Operator" }).click();
  const brandCard = page.getByTestId(/^review-brand-/).filter({ hasText: "Domains Co" });
  await expect(brandCard).toContainText("news@mail.domains-co.test");
  await brandCard.getByRole("button", { name: "Reject" }).click();
  await expect(brandCard.getByText("Say what the owners must change (at least 10 characters).")).toBeVisible();
  await brandCard.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByText("Brand Domains Co approved; 1 owner mailed.")).toBeVisible();
  const workspaceCard = page.getByTestId(`review-workspace-${workspace}`);
  await expect(workspaceCard).toContainText("mail.domains-co.test (ready)");
  await screenshot(page, "operator-reviews");
  await workspaceCard.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByText("Workspace Domains Co approved; 1 owner mailed.")).toBeVisible();
  expect((await seed.mailTo(owner.email)).map((mail) => mail.subject)).toEqual(
    expect.arrayContaining(["The brand Domains Co is approved", "Domains Co passed the review"]),
  );

  await page.context().clearCookies();
  await signInAs(page, owner);
  await page.goto(`/w/${workspace}`);
  await expect(page.getByText("Sending to anyone")).toBeVisible();
});

import { E2E_DNS_PORT } from "../playwright.config";
import { startDnsServer } from "@/lib/testing/dns-server";
import { expect, test } from "./fixtures";
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

test("add a domain, publish its records, check: each record's state, then ready, and the overview's step is done", async ({ page }) => {
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

  await expect(page.getByRole("heading", { name: "mail.domains-co.test" })).toBeVisible();
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
  await screenshot(page, "domain-records");

  dns.set(records[0]!.name, [{ type: "TXT", data: [records[0]!.value] }]);
  await page.getByRole("button", { name: "Check DNS now" }).click();
  await expect(page.getByText("Ready").first()).toBeVisible();
  await expect(page.getByTestId("record-spf")).toContainText("Found");

  await page.goto(`/w/${workspace}/domains`);
  await expect(page.getByRole("row", { name: /mail\.domains-co\.test/ })).toContainText("Ready");
  await screenshot(page, "domains");
  await page.goto(`/w/${workspace}`);
  const step = page.getByRole("list", { name: "Setup checklist" }).getByRole("listitem").filter({ hasText: "Verify a sending domain" });
  await expect(step.getByLabel("Done")).toBeVisible();
});

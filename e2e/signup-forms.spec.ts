import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { expect, test, type Seed } from "./fixtures";
import { screenshot } from "./screenshot";
import { signInAs } from "./sign-in-as";

// A form built in the dashboard, pasted on a sender's site served from another origin, used by visitors
// with and without JavaScript, refused where it does not belong, and counted.
test.describe.configure({ mode: "serial" });

const owner = { email: "forms-owner@example.com", password: "forms owner pass" };
let workspace: string;
let formId: string;
const snippets = { script: "", html: "" };

/** A static "sender's site": each path a page of its own, written once the dashboard has given the codes. */
function site(pages: Record<string, () => string>): Promise<{ server: Server; origin: string }> {
  const server = createServer((request, response) => {
    const page = pages[request.url ?? "/"];
    response.writeHead(page ? 200 : 404, { "Content-Type": "text/html; charset=utf-8" });
    response.end(
      page
        ? `<!doctype html><html><head><meta charset="utf-8"><title>Sender's site</title></head><body>${page()}</body></html>`
        : "not found",
    );
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    ),
  );
}

const HOSTILE_CSS = `<style>* { all: unset !important; } form { display: none !important; } div { color: red; font-size: 40px; }</style>`;
const pages = {
  "/": () => `<h1>Acme blog</h1><p>Subscribe below.</p>${snippets.script}`,
  "/hostile": () => `${HOSTILE_CSS}<h1>Acme blog</h1><form><input name="search"></form>${snippets.script}`,
  "/plain": () => `<h1>Acme blog</h1>${snippets.html}`,
};
let allowed: { server: Server; origin: string };
let elsewhere: { server: Server; origin: string };

test.beforeAll(async ({ seed }) => {
  workspace = await seed.workspace("Forms Co", owner.email);
  await seed.user(owner.email, owner.password);
  const brand = await seed.brand(workspace, "Forms Co");
  await seed.topic(workspace, brand, "Product News");
  await seed.approve(workspace);
  allowed = await site(pages);
  elsewhere = await site(pages);
});

test.afterAll(async () => {
  allowed?.server.close();
  elsewhere?.server.close();
});

/** The confirmation link mailed to an address, once the confirmation workflow has sent it. */
async function confirmationLink(seed: Seed, address: string): Promise<string> {
  let link = "";
  await expect(async () => {
    const [mail] = await seed.mailTo(address);
    link = mail?.links.find((candidate) => candidate.includes("/confirm/")) ?? "";
    expect(link).not.toBe("");
  }).toPass({ timeout: 20_000 });
  return link;
}

test("build a form in the dashboard: its topic, a publishable key for the sender's site made from the editor, texts, and its three embed codes", async ({
  page,
}) => {
  await signInAs(page, owner);
  await page.goto(`/w/${workspace}/forms`);
  await expect(page.getByRole("heading", { name: "Create your first signup form" })).toBeVisible();
  await screenshot(page, "forms-empty");
  await page.getByRole("link", { name: "New form" }).click();

  await page.getByLabel("Name", { exact: true }).fill("Blog footer");
  await expect(page.getByRole("checkbox", { name: /Product News/ })).toBeChecked();
  // No publishable key yet: saving says so next to the field.
  await page.getByRole("button", { name: "Create form" }).click();
  await expect(page.getByText("Choose a publishable key")).toBeVisible();
  await page.getByRole("button", { name: "New publishable key" }).click();
  await page.getByLabel("Allowed origins").fill(allowed.origin);
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByLabel("Publishable key")).toHaveValue(/^key_/);
  await expect(page.getByText(`Accepts submissions from ${allowed.origin}`)).toBeVisible();

  await page.getByLabel("Title").fill("Get Product News");
  await page.getByLabel("First name").selectOption("optional");
  await expect(
    page.frameLocator('iframe[title="Form preview"]').getByRole("heading", { name: "Get Product News" }),
  ).toBeVisible();
  await page.getByRole("button", { name: "Create form" }).click();

  await expect(page.getByRole("heading", { name: "Blog footer" })).toBeVisible();
  formId = new URL(page.url()).pathname.split("/").pop()!;
  snippets.script = (await page.getByTestId("embed-script").textContent())!;
  expect(snippets.script).toContain(`data-signup-form="${formId}"`);
  await screenshot(page, "form-editor");
  await page.getByRole("tab", { name: "Plain HTML" }).click();
  snippets.html = (await page.getByTestId("embed-html").textContent())!;
  expect(snippets.html).toContain(`/f/${formId}/submit`);
  await page.getByRole("tab", { name: "Hosted page" }).click();
  await expect(page.getByTestId("embed-hosted")).toHaveText(new RegExp(`/f/${formId}$`));
});

test("the script renders on the sender's site, signs up from the allowed origin, and confirming from the mailed link subscribes", async ({
  page,
  seed,
}) => {
  await page.goto(`${allowed.origin}/`);
  await page.getByLabel("Email").fill("visitor@example.com");
  await page.getByLabel(/First name/).fill("Vera");
  await page.getByRole("button", { name: "Subscribe" }).click();
  await expect(page.getByRole("status")).toHaveText(/check your inbox/);
  await page.screenshot({ path: "e2e/screenshots/form-on-site.png" });

  await page.goto(await confirmationLink(seed, "visitor@example.com"));
  await expect(page.getByRole("heading", { name: "You are subscribed" })).toBeVisible();

  await signInAs(page, owner);
  await page.goto(`/w/${workspace}/forms/${formId}`);
  await expect(page.getByTestId("form-submissions")).toHaveText("1");
  await expect(page.getByTestId("form-confirmed")).toHaveText("1");
  await expect(page.getByTestId("form-conversion")).toHaveText("100%");
});

test("on a site not on the key's allowlist the form says it cannot be used there, and a submission is refused", async ({
  page,
  request,
}) => {
  await page.goto(`${elsewhere.origin}/`);
  await expect(page.getByRole("alert")).toHaveText("This signup form cannot be used on this website.");
  await expect(page.getByLabel("Email")).toHaveCount(0);
  const refused = await request.post(`/f/${formId}/submit`, {
    headers: { origin: elsewhere.origin },
    data: { email: "elsewhere@example.com" },
  });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).error.code).toBe("origin_not_allowed");
});

test("a host page with aggressive global CSS still shows a usable form", async ({ page, seed }) => {
  await page.goto(`${allowed.origin}/hostile`);
  const email = page.getByLabel("Email");
  await expect(email).toBeVisible();
  const box = (await email.boundingBox())!;
  expect(box.width).toBeGreaterThan(150);
  // A mistake is announced next to its field, from the server's answer.
  await email.fill("hostile@example");
  await page.getByRole("button", { name: "Subscribe" }).click();
  await expect(page.getByText("Enter a valid email address.")).toBeVisible();
  await email.fill("hostile@example.com");
  await page.getByRole("button", { name: "Subscribe" }).click();
  await expect(page.getByRole("status")).toHaveText(/check your inbox/);
  expect(await confirmationLink(seed, "hostile@example.com")).toContain("/confirm/");
});

test("the plain HTML form with JavaScript off: submit, the hosted thank-you page, the confirmation mail", async ({
  browser,
  seed,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${allowed.origin}/plain`);
  await page.getByLabel("Email").fill("nojs@example.com");
  await page.getByRole("button", { name: "Subscribe" }).click();
  await expect(page).toHaveURL(new RegExp(`/f/${formId}\\?done=confirmation_sent`));
  await expect(page.getByRole("status")).toHaveText(/check your inbox/);
  expect(await confirmationLink(seed, "nojs@example.com")).toContain("/confirm/");

  // The hosted page posts without script too, and shows a mistake next to its field. It may sit in a sender's
  // iframe, unlike every other page of the service.
  const hosted = await page.goto(`/f/${formId}`);
  expect(hosted?.headers()["x-frame-options"]).toBeUndefined();
  expect((await page.request.get("/signin")).headers()).toMatchObject({
    "x-frame-options": "DENY",
    "content-security-policy": "frame-ancestors 'none'",
  });
  await page.getByLabel("Email").fill("nojs@example"); // passes the browser's own check, not the service's
  await page.getByRole("button", { name: "Subscribe" }).click();
  await expect(page.getByText("Enter a valid email address.")).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: "e2e/screenshots/form-hosted.png", fullPage: true });
  await context.close();
});

test("bots: a filled honeypot is answered like a person and dropped; with the challenge on, the page solves it and a missing one is refused", async ({
  page,
  request,
  seed,
}) => {
  const honeypot = await request.post(`/f/${formId}/submit`, {
    headers: { origin: allowed.origin },
    data: { email: "bot@example.com", website: "https://spam.example" },
  });
  expect(await honeypot.json()).toEqual({ data: { status: "confirmation_sent" } });

  await signInAs(page, owner);
  await page.goto(`/w/${workspace}/forms/${formId}`);
  await page.getByLabel("Ask browsers to solve an anti-spam challenge").check();
  await page.getByRole("button", { name: "Save form" }).click();
  await expect(page.getByText("Form saved")).toBeVisible();

  const unsolved = await request.post(`/f/${formId}/submit`, {
    headers: { origin: allowed.origin },
    data: { email: "unsolved@example.com" },
  });
  expect(unsolved.status()).toBe(400);
  expect((await unsolved.json()).error.code).toBe("challenge_failed");

  await page.goto(`${allowed.origin}/`);
  await page.getByLabel("Email").fill("solver@example.com");
  await page.getByRole("button", { name: "Subscribe" }).click();
  await expect(page.getByRole("status")).toHaveText(/check your inbox/, { timeout: 20_000 });
  expect(await confirmationLink(seed, "solver@example.com")).toContain("/confirm/");
  expect(await seed.mailTo("bot@example.com")).toEqual([]);
  expect(await seed.mailTo("unsolved@example.com")).toEqual([]);

  await page.goto(`/w/${workspace}/forms`);
  await expect(page.getByRole("row", { name: /Blog footer/ })).toContainText("Product News");
  await screenshot(page, "forms-list");
});

import { expect, test, type Page } from "@playwright/test";

import { admin } from "./admin-cli";

// One app and database for this file: the first-run page only exists until the first owner is made.
test.describe.configure({ mode: "serial" });

const owner = { email: "owner@example.com", password: "correct horse battery", workspace: "Acme Newsletters" };

async function signIn(page: Page, email: string, password: string) {
  await page.goto("/signin");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

test("with no user yet, every page leads to the first-run page, which creates the owner", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/setup$/);
  await page.getByLabel("Workspace name").fill(owner.workspace);
  await page.getByLabel("Email").fill(owner.email);
  await page.getByLabel(/Password/).fill(owner.password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/signin\?setup=done&email=owner%40example\.com$/);
  await expect(page.getByText("Your account is ready")).toBeVisible();

  // Once an owner exists the first-run page is gone.
  await page.goto("/setup");
  await expect(page).toHaveURL(/\/signin$/);
});

test("signing in shows the shell with the user's workspaces", async ({ page }) => {
  await signIn(page, owner.email, owner.password);
  await expect(page).toHaveURL(/\/w\/ws_[0-9a-z]+$/);
  await expect(page.getByRole("heading", { level: 1, name: owner.workspace })).toBeVisible();
  await expect(page.getByRole("button", { name: /Switch workspace/ })).toContainText(owner.workspace);
  await expect(page.getByTestId("signed-in-as")).toHaveText(owner.email);
});

test("a wrong password is refused with a message and no session", async ({ page }) => {
  await signIn(page, owner.email, "not the password");
  await expect(
    page.getByRole("alert").filter({ hasText: "That email and password do not match an account." }),
  ).toBeVisible();
  await page.goto("/");
  await expect(page).toHaveURL(/\/signin$/);
});

test("signed-out visitors are redirected to sign-in from every dashboard page", async ({ page }) => {
  for (const path of ["/", "/w/ws_01aaaaaaaaaaaaaaaaaaaaaaaa"]) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/signin/);
  }
});

test("workspaces made with the admin CLI appear for their members; others' workspaces are not found", async ({
  page,
}) => {
  const { workspace_id: mine } = admin<"workspace_id">(
    "workspace:create",
    "--name",
    "Second Brand Co",
    "--owner",
    owner.email,
  );
  const { workspace_id: theirs } = admin<"workspace_id">(
    "workspace:create",
    "--name",
    "Someone Else",
    "--owner",
    "else@example.com",
  );
  await signIn(page, owner.email, owner.password);
  const switcher = page.getByRole("button", { name: /Switch workspace/ });
  await switcher.click();
  await page.getByRole("menuitem", { name: "Second Brand Co" }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${mine}$`));
  await expect(page.getByRole("heading", { level: 1, name: "Second Brand Co" })).toBeVisible();
  await switcher.click();
  await expect(page.getByRole("menuitem", { name: owner.workspace })).toBeVisible();
  await expect(page.getByRole("menuitem", { name: "Someone Else" })).toHaveCount(0);
  await page.keyboard.press("Escape");

  const response = await page.goto(`/w/${theirs}`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
});

test("signing out ends the session", async ({ page }) => {
  await signIn(page, owner.email, owner.password);
  await expect(page.getByTestId("signed-in-as")).toBeVisible();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signin$/);
  await page.goto("/");
  await expect(page).toHaveURL(/\/signin$/);
});

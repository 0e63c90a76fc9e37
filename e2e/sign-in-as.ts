import { expect, type Page } from "@playwright/test";

/** Signs in through the sign-in page and waits for the dashboard shell. */
export async function signInAs(page: Page, user: { email: string; password: string }) {
  await page.goto("/signin");
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("signed-in-as")).toHaveText(user.email);
}

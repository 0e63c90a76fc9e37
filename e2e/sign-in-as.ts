import { expect, type Page } from "@playwright/test";

/**
 * Each person's browser gets an address of its own (X-Forwarded-For, believed from loopback in the
 * e2e app): the whole suite signs in from one machine, and the per-address sign-in limit (30 in 15
 * minutes) is about distinct people on one network, not one suite run on a fast machine.
 */
function addressOf(email: string): string {
  const hash = [...email].reduce((sum, char) => (sum * 31 + char.charCodeAt(0)) >>> 0, 7);
  return `10.${(hash >> 16) & 255}.${(hash >> 8) & 255}.${hash & 255 || 1}`;
}

/** Signs in through the sign-in page and waits for the dashboard shell. */
export async function signInAs(page: Page, user: { email: string; password: string }) {
  await page.setExtraHTTPHeaders({ "x-forwarded-for": addressOf(user.email) });
  await page.goto("/signin");
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("signed-in-as")).toHaveText(user.email);
  // Only the sign-in needs it; on other requests a custom header would make cross-origin fetches (a signup form) preflight.
  await page.setExtraHTTPHeaders({});
}

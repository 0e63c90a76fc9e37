import type { Page } from "@playwright/test";

/** A 1280×800 light-theme picture of the screen, for review (e2e/screenshots/, not committed). */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: "light" });
  await page.screenshot({ path: `e2e/screenshots/${name}.png`, fullPage: true });
}

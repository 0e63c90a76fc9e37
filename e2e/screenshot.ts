import type { Page } from "@playwright/test";

/** 1280×800 pictures of the screen in the light and the dark theme, for review (e2e/screenshots/, not committed). */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 800 });
  // From the top, as a person arrives: a page left scrolled draws its sticky sidebar mid-picture.
  await page.evaluate(() => window.scrollTo(0, 0));
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `e2e/screenshots/${name}${scheme === "dark" ? "-dark" : ""}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: "light" });
}

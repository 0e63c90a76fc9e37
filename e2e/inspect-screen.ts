import { expect, type BrowserContext } from "@playwright/test";

const VIEWS = [
  { name: "wide", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;
const SCHEMES = ["light", "dark"] as const;

/**
 * Loads a screen afresh in every theme and at desktop and phone width, as a person arriving there
 * would, and fails on a console error, an uncaught page error or a page wider than the window.
 * Each combination is a new load: hydration problems show only while a page loads.
 * Pictures go to e2e/screenshots/screens/ (not committed) for a person to look at.
 */
export async function inspectScreen(context: BrowserContext, path: string, name: string): Promise<void> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (message) => {
    // Chromium reports its sandbox at work in a frame that runs no script (the mail preview, the Test mailbox): not the page's fault.
    if (message.type() === "error" && !message.text().startsWith("Blocked script execution in 'about:srcdoc'"))
      problems.push(`console: ${message.text()} at ${message.location().url}:${message.location().lineNumber}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  try {
    for (const view of VIEWS) {
      for (const scheme of SCHEMES) {
        await page.setViewportSize({ width: view.width, height: view.height });
        await page.emulateMedia({ colorScheme: scheme });
        await page.goto(path, { waitUntil: "networkidle" });
        const { scrollWidth, innerWidth } = await page.evaluate(() => ({
          scrollWidth: document.documentElement.scrollWidth,
          innerWidth: window.innerWidth,
        }));
        if (scrollWidth > innerWidth)
          problems.push(`${view.name} ${scheme}: the page is ${scrollWidth} px wide in a ${innerWidth} px window`);
        await page.screenshot({ path: `e2e/screenshots/screens/${name}-${view.name}-${scheme}.png`, fullPage: true });
      }
    }
  } finally {
    await page.close();
  }
  expect(problems, `${name} (${path})`).toEqual([]);
}

import { defineConfig } from "@playwright/test";

// Run through `npm test` (scripts/test.ts), which builds the app and gives each run a fresh database.
const port = Number(process.env.E2E_PORT || 3210);
const baseURL = `http://127.0.0.1:${port}`;
// The domains test serves its zone on this port; the app looks sending domains up there.
export const E2E_DNS_PORT = Number(process.env.E2E_DNS_PORT || port + 1);

export default defineConfig({
  testDir: "e2e",
  // lib/ modules import "server-only"; e2e/tsconfig.json resolves it to its empty module in this process.
  tsconfig: "./e2e/tsconfig.json",
  workers: 1,
  retries: 0,
  forbidOnly: true,
  // Generous: a busy two-core machine takes seconds to launch a browser or load a page; a rule broken still fails.
  timeout: 120_000,
  expect: { timeout: 15_000 },
  reporter: [["list"], ["json", { outputFile: process.env.E2E_RESULTS_FILE || ".data/e2e-results.json" }]],
  use: {
    baseURL,
    trace: "retain-on-failure",
    launchOptions: {
      // Debian's Chromium: Playwright's own browser download cannot be fetched here.
      executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking"],
    },
  },
  projects: [
    // The first-run page exists only on an empty installation (no user, no workspace): it runs before any test makes one.
    { name: "first-run", testMatch: "sign-in.spec.ts", use: { browserName: "chromium" } },
    { name: "api", testMatch: "api.spec.ts", dependencies: ["first-run"] },
    {
      name: "ui",
      testIgnore: ["api.spec.ts", "sign-in.spec.ts"],
      dependencies: ["first-run"],
      use: { browserName: "chromium" },
    },
  ],
  webServer: {
    command: "npx tsx --expose-gc scripts/serve.ts start", // as `npm start` runs it
    url: `${baseURL}/signin`,
    // Private targets allowed: the webhook test's receiver listens on loopback. The consent tests read
    // mail in the test mailbox, which a production start shows only for the local transport.
    env: {
      ...(process.env as Record<string, string>),
      PORT: String(port),
      APP_URL: baseURL,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "1",
      MAIL_TRANSPORT: "local",
      TRUSTED_PROXIES: "127.0.0.1,::1",
      DNS_SERVERS: `127.0.0.1:${E2E_DNS_PORT}`,
      // As an SMTP install names its relay: APP_URL is on 127.0.0.1, from which no SPF include is made.
      SPF_INCLUDE: "_spf.e2e-relay.test",
    },
    reuseExistingServer: false,
    timeout: 180_000,
    gracefulShutdown: { signal: "SIGTERM", timeout: 15_000 },
    stdout: "ignore",
    stderr: "pipe",
  },
});

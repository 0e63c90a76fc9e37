import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig({
  resolve: {
    alias: {
      "@/": root,
      // lib/ modules mark themselves server-only; tests are server code.
      "server-only": fileURLToPath(new URL("node_modules/server-only/empty.js", import.meta.url)),
    },
  },
  test: {
    include: ["lib/**/*.test.ts", "scripts/**/*.test.ts", "app/**/*.test.ts", "inngest/**/*.test.ts"],
    globalSetup: ["./lib/testing/global-setup.ts"],
    setupFiles: ["./lib/testing/database-per-file.ts", "./lib/testing/workflow-events.ts"],
    // Quiet by default (no line per request or workflow step); a test asserts on lines with captureLogs().
    env: { LOG_LEVEL: process.env.LOG_LEVEL || "warn" },
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});

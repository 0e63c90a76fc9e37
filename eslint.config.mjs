import nextVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";
import prettier from "eslint-config-prettier/flat";
import { defineConfig, globalIgnores } from "eslint/config";

export default defineConfig([
  ...nextVitals,
  ...nextTypescript,
  globalIgnores([
    ".next/**",
    ".data/**",
    "node_modules/**",
    "next-env.d.ts",
    "drizzle/**",
    "test-results/**",
    "playwright-report/**",
  ]),
  {
    // Pages and route handlers go through lib/ verbs; only lib/ and scripts/ talk to the database.
    files: ["app/**/*.ts", "app/**/*.tsx", "components/**/*.ts", "components/**/*.tsx"],
    // Tests beside routes may read the database to check what a request wrote.
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          // Types may be shared; values (the client, tables, query builders) may not.
          patterns: [
            {
              group: ["@/lib/db/*", "**/lib/db/*"],
              message: "Call a lib/<domain> verb instead of the database.",
              allowTypeImports: true,
            },
            {
              group: ["drizzle-orm", "drizzle-orm/*", "postgres"],
              message: "Call a lib/<domain> verb instead of the database.",
            },
          ],
        },
      ],
    },
  },
  {
    // Components are shared parts: pages hand them their server actions, never the other way round.
    files: ["components/**/*.ts", "components/**/*.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["@/app/*", "**/app/*"], message: "Components take what they need from app/ as props." },
            {
              group: ["@/lib/db/*", "**/lib/db/*"],
              message: "Call a lib/<domain> verb instead of the database.",
              allowTypeImports: true,
            },
            {
              group: ["drizzle-orm", "drizzle-orm/*", "postgres"],
              message: "Call a lib/<domain> verb instead of the database.",
            },
          ],
        },
      ],
    },
  },
  {
    // lib/ names the events that start workflows (lib/events/) and never the engine that runs them:
    // each process's start hands the Inngest emitter over (connectWorkflowEvents in inngest/emit.ts).
    files: ["lib/**/*.ts"],
    // Tests and their harness drive the workflows themselves.
    ignores: ["**/*.test.ts", "lib/testing/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@/inngest", "@/inngest/*", "**/inngest/*"],
              message: "Emit through lib/events/emit-events.ts; workflows live in inngest/.",
            },
          ],
        },
      ],
    },
  },
  {
    // Server code logs through lib/log/logger.ts (JSON lines, LOG_LEVEL); the CLI and benchmarks print.
    files: ["app/**/*.ts", "app/**/*.tsx", "lib/**/*.ts", "inngest/**/*.ts", "instrumentation.ts"],
    ignores: ["**/*.test.ts"],
    rules: { "no-console": "error" },
  },
  {
    // The environment is read, validated and typed in one place: lib/env.ts. lib/db/ and lib/runtime/
    // read it before that config exists (the data folder, the database, the secrets they generate).
    files: ["**/*.ts", "**/*.tsx", "**/*.mjs"],
    ignores: [
      "lib/env.ts",
      "lib/db/**",
      "lib/runtime/**",
      // Config files are read by their tools (Vitest, Playwright, Next.js), outside the service.
      "*.config.ts",
      "*.config.mjs",
      // The CLI, the server wrapper and the benchmarks set up the environment lib/env parses, and hand it to children.
      "scripts/**",
      // Tests and their harness set variables for the code under test and pass them to the processes they spawn.
      "**/*.test.ts",
      "lib/testing/**",
      "inngest/embedded/testing/**",
      "e2e/**",
      // Examples for integrators stand alone, outside the service.
      "docs/examples/**",
    ],
    rules: {
      "no-restricted-properties": [
        "error",
        { object: "process", property: "env", message: "Read the configuration through env() in lib/env.ts." },
      ],
    },
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  // Last: formatting is Prettier's (npm run format), so no lint rule argues with it.
  prettier,
]);

import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";
import prettier from "eslint-config-prettier/flat";

export default defineConfig([
  ...nextVitals,
  ...nextTypescript,
  globalIgnores([".next/**", ".data/**", "node_modules/**", "next-env.d.ts", "drizzle/**", "test-results/**", "playwright-report/**"]),
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
            { group: ["@/lib/db/*", "**/lib/db/*"], message: "Call a lib/<domain> verb instead of the database.", allowTypeImports: true },
            { group: ["drizzle-orm", "drizzle-orm/*", "postgres"], message: "Call a lib/<domain> verb instead of the database." },
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
            { group: ["@/lib/db/*", "**/lib/db/*"], message: "Call a lib/<domain> verb instead of the database.", allowTypeImports: true },
            { group: ["drizzle-orm", "drizzle-orm/*", "postgres"], message: "Call a lib/<domain> verb instead of the database." },
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
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  // Last: formatting is Prettier's (npm run format), so no lint rule argues with it.
  prettier,
]);

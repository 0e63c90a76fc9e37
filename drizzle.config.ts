import { defineConfig } from "drizzle-kit";

// Only `drizzle-kit generate` uses this file; it needs no database connection.
export default defineConfig({
  dialect: "postgresql",
  schema: "./lib/db/schema/index.ts",
  out: "./drizzle",
});

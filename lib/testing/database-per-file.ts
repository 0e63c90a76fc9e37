import { afterAll, inject } from "vitest";

import { closeDb } from "@/lib/db/client";

import { createDatabaseFromTemplate, dropDatabase } from "./test-database";

// Each test file runs on a fresh copy of the migrated template, so files never see each other's rows.
const server = inject("testDatabase");
const name = `${server.prefix}_${Math.random().toString(36).slice(2, 10)}`;
process.env.DATABASE_URL = await createDatabaseFromTemplate(server, name);
process.env.AUTH_SECRET ||= "test-auth-secret";
process.env.CURSOR_SECRET ||= "test-cursor-secret";
process.env.TOKEN_SECRET ||= "test-token-secret";
process.env.APP_URL ||= "http://localhost:3000";

afterAll(async () => {
  await closeDb();
  await dropDatabase(server.adminUrl, name);
});

// One app instance's share of the two-instance rate-limit test: calls GET /v1/contacts through the full
// route pipeline (lib/testing/api-client.ts, as Next.js would) RATE_LIMIT_CALLS times with RATE_LIMIT_KEY,
// starting when the test writes a line to stdin so that both instances call at once. Prints its tally.
import { createInterface } from "node:readline";

import { closeDb } from "@/lib/db/client";

import { callApi } from "./api-client";

const key = process.env.RATE_LIMIT_KEY!;
const calls = Number(process.env.RATE_LIMIT_CALLS);
process.stdout.write(`${JSON.stringify({ msg: "ready" })}\n`);
await new Promise((resolve) => createInterface({ input: process.stdin }).once("line", resolve));
const statuses: Record<number, number> = {};
// The rate limit's minute windows the calls fell in (a sliding window weighs the previous one).
const minutes = new Set<number>();
for (let i = 0; i < calls; i++) {
  minutes.add(Math.floor(Date.now() / 60_000));
  const { status } = await callApi("GET", "/v1/contacts", { key });
  minutes.add(Math.floor(Date.now() / 60_000));
  statuses[status] = (statuses[status] ?? 0) + 1;
}
process.stdout.write(`${JSON.stringify({ msg: "done", statuses, minutes: [...minutes] })}\n`);
await closeDb();
process.exit(0);

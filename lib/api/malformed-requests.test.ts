import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { v1Document } from "@/app/v1/v1-document";
import { rawClient } from "@/lib/db/client";
import { seedFuzzWorld } from "@/lib/testing/fuzz/fuzz-world";
import { DEFECTS, malformedRequest } from "@/lib/testing/fuzz/malformed-request";
import { operationsOf } from "@/lib/testing/fuzz/operations";
import { breach, sendMalformed } from "@/lib/testing/fuzz/run-fuzz";
import { testCtx } from "@/lib/testing/test-context";

// The routes stamp rows and count rate limits with the real clock; the seed does too.
const { ctx } = testCtx(new Date());

// `npm run fuzz:api` sends 10,000 of these; this is its seeded few hundred, so every `npm test` runs it.
const SEED = 20260105;
const RUNS = 300;

describe("Robustness: malformed requests", () => {
  it("malformed requests to every /v1 route never answer 5xx, always answer the error shape, and change nothing", async () => {
    const world = await seedFuzzWorld(ctx, 8);
    const operations = operationsOf(v1Document());
    const sql = rawClient(ctx.db);
    const operationsSent = new Set<string>();
    const defectsApplied = new Set<string>();
    // Each request is checksummed around (every table, in PostgreSQL), so a change is the request's own and
    // fast-check can shrink a failure to the smallest request that still breaks the rule.
    await fc.assert(
      fc.asyncProperty(malformedRequest(operations, world), async (request) => {
        operationsSent.add(request.operation);
        request.kinds.forEach((kind) => defectsApplied.add(kind));
        expect(breach(await sendMalformed(request, sql))).toBeNull();
      }),
      { seed: SEED, numRuns: RUNS },
    );
    // Built from the document: every operation it lists was called, and most kinds of defect were applied.
    expect([...operationsSent].sort()).toEqual(operations.map((op) => `${op.method} ${op.path}`).sort());
    expect(defectsApplied.size).toBeGreaterThan(DEFECTS.length * 0.8);
  }, 300_000);
});

import { describe, expect, it } from "vitest";

import { runDispatchChaos, seededRandom } from "@/lib/testing/dispatch-chaos";
import { testCtx } from "@/lib/testing/test-context";

const { ctx } = testCtx();

// The short run of `npm run chaos:dispatch`: 5 kills over 5,000 recipients. Its time is the worker's
// start-up five times over plus the sending, so it gets the time a slow machine needs.
describe("chaos in dispatch", () => {
  it(
    "a worker SIGKILLed 5 times during snapshot, batches, pause and resume still gives every recipient exactly one message, and every counter equals its recount",
    { timeout: 600_000 },
    async () => {
      const result = await runDispatchChaos(ctx, {
        recipients: 5000,
        kills: 5,
        batchSize: 100,
        random: seededRandom(20261125),
      });
      expect(result.kills).toBe(5);
      expect(result.phases.paused).toBeGreaterThanOrEqual(1);
      expect(result.phases.resumed).toBeGreaterThanOrEqual(1);
      expect({
        recipients: result.recipients,
        messages: result.messages,
        duplicates: result.duplicates,
        lost: result.lost,
      }).toEqual({ recipients: 5000, messages: 5000, duplicates: 0, lost: 0 });
      expect(result.mismatches).toEqual([]);
    },
  );
});

import { describe, expect, it } from "vitest";

import { runAutomationChaos } from "@/lib/testing/automation-chaos";
import { seededRandom } from "@/lib/testing/dispatch-chaos";
import { testCtx } from "@/lib/testing/test-context";

const { ctx } = testCtx();
const PEOPLE = Number(process.env.AUTOMATION_CHAOS_PEOPLE ?? 300);

// The short run of `npm run chaos:automations` (10,000 people there): its time is the worker's start-up
// eleven times over plus the steps, so it gets the time a slow machine needs, and no wait in it is timed.
describe("chaos in automations", () => {
  it(
    "every person gets each mail of a three-mail automation exactly once, in order, though the app is SIGKILLed 10 times",
    { timeout: 900_000 },
    async () => {
      const result = await runAutomationChaos(ctx, { people: PEOPLE, kills: 10, random: seededRandom(20261129) });
      console.log(`automation chaos: ${JSON.stringify(result)}`);
      expect(result.kills).toBe(10);
      // Kills landed while each of the three mails was going out.
      expect(Object.keys(result.phases).sort()).toEqual(["mail 1", "mail 2", "mail 3"]);
      expect({
        people: result.people,
        messages: result.messages,
        duplicates: result.duplicates,
        lost: result.lost,
        outOfOrder: result.outOfOrder,
        completed: result.completed,
      }).toEqual({ people: PEOPLE, messages: PEOPLE * 3, duplicates: 0, lost: 0, outOfOrder: 0, completed: PEOPLE });
    },
  );
});

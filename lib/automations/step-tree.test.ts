import { describe, expect, it } from "vitest";

import { numberSteps, type AutomationStep } from "./automation-schemas";
import { placeSteps } from "./step-tree";

const send: AutomationStep = { type: "send", subject: "s", text: "t" };
const wait: AutomationStep = { type: "wait", minutes: 1 };

describe("step tree", () => {
  it("numbers steps as numberSteps does, and after a branch's arm the run goes on after the branch", () => {
    const steps: AutomationStep[] = [
      send, // 0
      {
        type: "branch", // 1
        condition: { kind: "opened", step: 0 },
        yes: [wait, send], // 2, 3
        no: [{ type: "branch", condition: { kind: "clicked", step: 0 }, yes: [], no: [send] }], // 4 (5)
      },
      send, // 6
    ];
    const placed = placeSteps(steps);
    expect(placed.map((p) => p.step.type)).toEqual(numberSteps(steps).map((n) => n.step.type));
    expect(placed.map((p) => p.next)).toEqual([1, 6, 3, 6, 6, 6, null]);
    expect(placed[1]).toMatchObject({ yes: 2, no: 4 });
    // An empty arm goes straight on after its branch.
    expect(placed[4]).toMatchObject({ yes: 6, no: 5 });
  });
});

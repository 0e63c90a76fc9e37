import type { AutomationStep } from "./automation-schemas";

// Where a run goes after each step of a version's tree, by step number (numberSteps' pre-order).
// Pure: the run's steps and the version move both read it.

export interface PlacedStep {
  index: number;
  step: AutomationStep;
  /** The step after this one is done, or null at the end of the version. For a branch: after both arms. */
  next: number | null;
  /** A branch's first step of each arm (`next` when the arm is empty). */
  yes?: number | null;
  no?: number | null;
}

const size = (step: AutomationStep): number =>
  step.type === "branch" ? 1 + step.yes.reduce((n, s) => n + size(s), 0) + step.no.reduce((n, s) => n + size(s), 0) : 1;

/** Every step of the version by its number, with where the run goes next. */
export function placeSteps(steps: readonly AutomationStep[]): PlacedStep[] {
  const out: PlacedStep[] = [];
  const walk = (list: readonly AutomationStep[], start: number, after: number | null) => {
    let index = start;
    for (const [i, step] of list.entries()) {
      const following = index + size(step);
      const next = i === list.length - 1 ? after : following;
      if (step.type === "branch") {
        const yesSize = step.yes.reduce((n, s) => n + size(s), 0);
        out[index] = {
          index,
          step,
          next,
          yes: step.yes.length > 0 ? index + 1 : next,
          no: step.no.length > 0 ? index + 1 + yesSize : next,
        };
        walk(step.yes, index + 1, next);
        walk(step.no, index + 1 + yesSize, next);
      } else out[index] = { index, step, next };
      index = following;
    }
  };
  walk(steps, 0, null);
  return out;
}

import type { AutomationStep, AutomationStepType } from "@/lib/automations/automation-schemas";
import { STARTER_DOCUMENT } from "@/lib/email-blocks/email-extensions";

// The builder's steps as a tree it edits without mutating: a step is found by its address, the path
// zod uses (`[0, "yes", 1]`); a list by the address of the list (`[]` the top, `[0, "yes"]` an arm).

export type Address = (string | number)[];

export interface PlacedStep {
  address: Address;
  /** The pre-order number (numberSteps): what figures and the server's problems name. */
  index: number;
  step: AutomationStep;
  depth: number;
}

/** Every step with its address and number, in pre-order (a branch, its yes arm, its no arm, what follows). */
export function placeSteps(steps: AutomationStep[]): PlacedStep[] {
  const out: PlacedStep[] = [];
  const walk = (list: AutomationStep[], at: Address, depth: number) =>
    list.forEach((step, position) => {
      const address = [...at, position];
      out.push({ address, index: out.length, step, depth });
      if (step.type === "branch") {
        walk(step.yes, [...address, "yes"], depth + 1);
        walk(step.no, [...address, "no"], depth + 1);
      }
    });
  walk(steps, [], 0);
  return out;
}

/** The steps with the list at `listAddress` replaced by what `change` makes of it. */
function changeList(
  steps: AutomationStep[],
  listAddress: Address,
  change: (list: AutomationStep[]) => AutomationStep[],
): AutomationStep[] {
  if (listAddress.length === 0) return change(steps);
  const [position, arm, ...rest] = listAddress as [number, "yes" | "no", ...Address];
  return steps.map((step, i) => {
    if (i !== position || step.type !== "branch") return step;
    return { ...step, [arm]: changeList(step[arm], rest, change) };
  });
}

export function insertStep(steps: AutomationStep[], listAddress: Address, at: number, step: AutomationStep) {
  return changeList(steps, listAddress, (list) => [...list.slice(0, at), step, ...list.slice(at)]);
}

export function replaceStep(steps: AutomationStep[], address: Address, step: AutomationStep) {
  const position = address.at(-1) as number;
  return changeList(steps, address.slice(0, -1), (list) => list.map((old, i) => (i === position ? step : old)));
}

export function removeStep(steps: AutomationStep[], address: Address) {
  const position = address.at(-1) as number;
  return changeList(steps, address.slice(0, -1), (list) => list.filter((_, i) => i !== position));
}

export const sameAddress = (a: Address, b: Address) => a.length === b.length && a.every((key, i) => key === b[i]);

/** A new step of a kind, as the menu adds it: filled where a default makes sense, empty where the sender must choose. */
export function newStep(type: AutomationStepType, firstListId: string): AutomationStep {
  switch (type) {
    case "send":
      return { type, subject: "", html: "", text: "", document: STARTER_DOCUMENT };
    case "wait":
      return { type, minutes: 1440 };
    case "wait_until":
      return { type, hour: 9, minute: 0, weekdays: [] };
    case "wait_for_event":
      return { type, name: "", timeout_minutes: 1440 * 3 };
    case "list_add":
    case "list_remove":
      return { type, list_id: firstListId };
    case "set_attribute":
      return { type, attribute: "", value: "" };
    case "branch":
      return { type, condition: { kind: "event", name: "", within_minutes: null }, yes: [], no: [] };
    case "exit":
      return { type };
  }
}

/** The steps as the server takes them: a block-editor mail sends its document (the server renders it), an HTML one its parts. */
export function stepsToSave(steps: AutomationStep[]): AutomationStep[] {
  return steps.map((step): AutomationStep => {
    if (step.type === "branch") return { ...step, yes: stepsToSave(step.yes), no: stepsToSave(step.no) };
    if (step.type === "send" && step.document) return { type: "send", subject: step.subject, document: step.document };
    if (step.type === "send")
      return {
        type: "send",
        subject: step.subject,
        html: step.html ?? "",
        ...(step.text?.trim() ? { text: step.text } : {}),
      };
    if (step.type === "wait_until" && step.weekdays?.length === 0) return { ...step, weekdays: undefined };
    return step;
  });
}

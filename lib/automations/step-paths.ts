// Where a problem with a set of steps is: zod names a step by its place in the tree
// (`steps.0.yes.1.subject`), the merge-tag check and the figures by its pre-order number
// (`steps.2.subject`, numberSteps). The builder shows both beside the step: everything is said in
// pre-order numbers. Free of server code: the builder's own check uses it too.

type Key = string | number;

const isBranch = (step: unknown): step is { yes: unknown[]; no: unknown[] } =>
  typeof step === "object" &&
  step !== null &&
  (step as { type?: unknown }).type === "branch" &&
  Array.isArray((step as { yes?: unknown }).yes) &&
  Array.isArray((step as { no?: unknown }).no);

/** How many steps a step stands for, itself and those inside its arms. */
function size(step: unknown): number {
  return isBranch(step) ? 1 + [...step.yes, ...step.no].reduce<number>((sum, inner) => sum + size(inner), 0) : 1;
}

/**
 * A tree path inside `steps` (without the leading "steps") as `steps.<number>.<rest>`: the step's
 * pre-order number and the field within it. A path naming no step (the list itself) is `steps`.
 */
export function numberedPath(steps: unknown, path: readonly Key[]): string {
  let list: unknown[] = Array.isArray(steps) ? steps : [];
  let base = 0;
  let rest = [...path];
  let found: number | null = null;
  while (rest.length > 0 && typeof rest[0] === "number") {
    const position = rest[0];
    const step = list[position];
    const index = base + list.slice(0, position).reduce<number>((sum, earlier) => sum + size(earlier), 0);
    found = index;
    rest = rest.slice(1);
    // Into an arm: `yes` starts right after the branch, `no` after the whole `yes` arm.
    if (isBranch(step) && (rest[0] === "yes" || rest[0] === "no") && typeof rest[1] === "number") {
      base = index + 1 + (rest[0] === "no" ? step.yes.reduce<number>((sum, inner) => sum + size(inner), 0) : 0);
      list = rest[0] === "yes" ? step.yes : step.no;
      rest = rest.slice(1);
      continue;
    }
    break;
  }
  return ["steps", ...(found === null ? [] : [found]), ...rest].map(String).join(".");
}

/** The pre-order number a `steps.<number>…` path names, or null for a problem of the whole list. */
export function stepNumberOf(path: string): number | null {
  const match = /^steps\.(\d+)(\.|$)/.exec(path);
  return match ? Number(match[1]) : null;
}

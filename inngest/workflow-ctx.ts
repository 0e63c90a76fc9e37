import { defaultCtx, type Ctx } from "@/lib/context";

let configured: Ctx | undefined;

/** The context workflow steps act with: the app's by default; tests give one with a clock they move. */
export function workflowCtx(): Ctx {
  return configured ?? defaultCtx();
}

export function setWorkflowCtx(ctx: Ctx | undefined): void {
  configured = ctx;
}

import type { BillingStage } from "@/lib/db/schema";
import { ApiError } from "@/lib/errors";

// Read-only and deletion-scheduled workspaces keep reading (reports, contact export) but change nothing;
// a deleted workspace does nothing at all.
const REFUSES_WRITES: BillingStage[] = ["read_only", "deletion_scheduled", "deleted"];

export function checkWorkspaceActive(stage: BillingStage | null, method: string): void {
  const write = method !== "GET" && method !== "HEAD";
  if (stage === "deleted" || (write && stage && REFUSES_WRITES.includes(stage))) {
    throw new ApiError({
      type: "permission_error",
      code: "team_inactive",
      message: "This workspace cannot act now, usually because of billing. Sign in to the dashboard to resolve it.",
    });
  }
}

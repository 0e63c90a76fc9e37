import type { Currency } from "@/lib/billing/plans";
import { approveWorkspace } from "@/lib/workspaces/approve-workspace";
import { createWorkspace } from "@/lib/workspaces/create-workspace";

import { opt, str, string, type AdminCommand } from "./admin-command";

/** Workspaces: creating one with its owner, and approving it (the review before it may send). */
export const workspaceCommands: Record<string, AdminCommand> = {
  "workspace:create": {
    summary: "--name N --owner EMAIL [--currency usd|eur|gbp]   (the billing currency cannot change later)",
    options: { name: string, owner: string, currency: string },
    required: ["name", "owner"],
    run: async (ctx, v) => {
      const { workspaceId } = await createWorkspace(ctx, {
        name: str(v, "name"),
        ownerEmail: str(v, "owner"),
        currency: opt(v, "currency") as Currency | undefined,
      });
      return { workspace_id: workspaceId };
    },
  },
  "workspace:approve": {
    summary: "--workspace ID",
    options: { workspace: string },
    required: ["workspace"],
    run: async (ctx, v) => {
      const { workspaceId, approvedAt } = await approveWorkspace(ctx, str(v, "workspace"));
      return { workspace_id: workspaceId, approved_at: approvedAt.toISOString() };
    },
  },
};

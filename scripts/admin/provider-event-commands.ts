import { PROVIDER_EVENT_STATES, type ProviderEventState } from "@/lib/db/schema";
import { listProviderEvents, retryProviderEvent } from "@/lib/deliverability/provider-event-admin";
import { validationFailed } from "@/lib/errors";

import { opt, str, string, type AdminCommand } from "./admin-command";

/** Bounce and complaint reports as providers sent them, and applying a failed one again. */
export const providerEventCommands: Record<string, AdminCommand> = {
  "provider-events:list": {
    summary:
      "[--state received|applied|ignored|failed|unrecognized] [--limit N]   (bounce and complaint reports as received)",
    options: { state: string, limit: string },
    required: [],
    run: async (ctx, v) => {
      const state = opt(v, "state");
      if (state && !PROVIDER_EVENT_STATES.includes(state as ProviderEventState))
        throw validationFailed("state", `state: must be one of ${PROVIDER_EVENT_STATES.join(", ")}.`);
      const limit = Number(opt(v, "limit") ?? 50);
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
        throw validationFailed("limit", "limit: must be 1 to 1000.");
      const rows = await listProviderEvents(ctx, { state: state as ProviderEventState | undefined, limit });
      return {
        data: rows.map((row) => ({
          id: row.id,
          provider: row.provider,
          provider_event_id: row.providerEventId,
          state: row.state,
          workspace_id: row.workspaceId,
          attempts: row.attempts,
          last_error: row.lastError,
          received_at: row.receivedAt.toISOString(),
          applied_at: row.appliedAt?.toISOString() ?? null,
          event: row.event,
        })),
      };
    },
  },
  "provider-events:retry": {
    summary: "--id ID   (apply a failed report again, once its cause is fixed)",
    options: { id: string },
    required: ["id"],
    run: async (ctx, v) => {
      await retryProviderEvent(ctx, str(v, "id"));
      return { id: str(v, "id"), state: "received" };
    },
  },
};

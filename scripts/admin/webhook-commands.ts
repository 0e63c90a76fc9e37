import { systemActor } from "@/lib/actor";
import { createEndpoint, enableEndpoint, listDeliveries, rotateSecret } from "@/lib/webhooks/endpoints";

import { str, string, type AdminCommand } from "./admin-command";

/** Webhook endpoints: created, their secret rotated, enabled again, and their deliveries listed. */
export const webhookCommands: Record<string, AdminCommand> = {
  "webhook:create": {
    summary: "--workspace ID --url U [--event E]...   (no --event: every event; prints the signing secret once)",
    options: { workspace: string, url: string, event: { type: "string", multiple: true } },
    required: ["workspace", "url"],
    run: async (ctx, v) => {
      const { endpointId, secret } = await createEndpoint(ctx, systemActor("admin-cli", str(v, "workspace")), {
        url: str(v, "url"),
        eventTypes: (v.event as string[] | undefined) ?? [],
      });
      return { endpoint_id: endpointId, secret };
    },
  },
  "webhook:rotate": {
    summary:
      "--endpoint ID   (new signing secret for the next delivery; deliveries being retried are retried with it now)",
    options: { endpoint: string },
    required: ["endpoint"],
    run: async (ctx, v) => {
      const { secret, retried } = await rotateSecret(ctx, systemActor("admin-cli"), str(v, "endpoint"));
      return { secret, retried };
    },
  },
  "webhook:enable": {
    summary: "--endpoint ID   (turns a disabled endpoint back on for events from now on)",
    options: { endpoint: string },
    required: ["endpoint"],
    run: async (ctx, v) => {
      const endpoint = await enableEndpoint(ctx, systemActor("admin-cli"), str(v, "endpoint"));
      return { endpoint_id: endpoint.id, enabled: endpoint.enabled };
    },
  },
  "webhook:deliveries": {
    summary: "--endpoint ID   (every delivery with each attempt: status code, latency, response excerpt)",
    options: { endpoint: string },
    required: ["endpoint"],
    run: async (ctx, v) => {
      const { endpoint, deliveries } = await listDeliveries(ctx, systemActor("admin-cli"), str(v, "endpoint"));
      return {
        endpoint_id: endpoint.id,
        url: endpoint.url,
        enabled: endpoint.enabled,
        disabled_at: endpoint.disabledAt?.toISOString() ?? null,
        disabled_reason: endpoint.disabledReason,
        deliveries: deliveries.map((delivery) => ({
          delivery_id: delivery.id,
          event_id: delivery.eventId,
          event_type: delivery.eventType,
          status: delivery.status,
          attempt_count: delivery.attemptCount,
          next_attempt_at: delivery.nextAttemptAt?.toISOString() ?? null,
          attempts: delivery.attempts.map((attempt) => ({
            attempted_at: attempt.attemptedAt.toISOString(),
            status_code: attempt.statusCode,
            latency_ms: attempt.latencyMs,
            response_excerpt: attempt.responseExcerpt,
            error: attempt.error,
          })),
        })),
      };
    },
  },
};

import "server-only";

import { and, asc, desc, eq, inArray, isNotNull } from "drizzle-orm";

import { inActorWorkspace, requireActorWorkspace, type Actor } from "@/lib/actor";
import { withTransaction, type Ctx } from "@/lib/context";
import { events, users, webhookAttempts, webhookDeliveries, webhookEndpoints, workspaces } from "@/lib/db/schema";
import { ApiError, notFound, validationFailed } from "@/lib/errors";
import { EVENT_TYPES, type EventType } from "@/lib/events/event-types";
import { newId, randomBase62 } from "@/lib/ids";
import { parseInput } from "@/lib/validation/parse-input";
import { checkWorkspaceWritable } from "@/lib/workspaces/check-workspace-writable";

import { askForRuns, holdWakeLocks } from "./request-delivery";
import { checkTargetUrl, TargetRefusedError } from "./target-address";
import { createEndpointSchema, type CreateEndpointInput } from "./webhook-schemas";

type Endpoint = typeof webhookEndpoints.$inferSelect;

/** One signing secret per endpoint, shown to the sender once. */
function newSigningSecret(): string {
  return `whsec_${randomBase62(40)}`;
}

/** An endpoint of another workspace than the actor's is not found. */
export async function getEndpointOrThrow(ctx: Ctx, actor: Actor, endpointId: string): Promise<Endpoint> {
  const [endpoint] = await ctx.db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, endpointId), inActorWorkspace(actor, webhookEndpoints.workspaceId)));
  if (!endpoint) throw notFound("webhook_endpoint_not_found", `No webhook endpoint ${endpointId}.`, "endpoint");
  return endpoint;
}

/** Registers an endpoint in the actor's workspace. No event types means every event; the target is checked before anything is stored. */
export async function createEndpoint(
  ctx: Ctx,
  actor: Actor,
  input: CreateEndpointInput,
): Promise<{ endpointId: string; secret: string }> {
  const values = parseInput(createEndpointSchema, input);
  const workspaceId = requireActorWorkspace(actor);
  // A read-only or deleted workspace changes nothing, here as through /v1 (the dashboard and the CLI call this directly).
  await checkWorkspaceWritable(ctx, workspaceId);
  const unknown = values.eventTypes.find((type) => !(EVENT_TYPES as readonly string[]).includes(type));
  if (unknown)
    throw validationFailed("event", `Unknown event type ${unknown}; known types: ${EVENT_TYPES.join(", ")}.`);
  let url: URL;
  try {
    url = await checkTargetUrl(values.url);
  } catch (error) {
    if (error instanceof TargetRefusedError)
      throw new ApiError({
        type: "invalid_request_error",
        code: "webhook_target_refused",
        message: error.message,
        param: "url",
      });
    throw error;
  }
  const [workspace] = await ctx.db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, workspaceId));
  if (!workspace) throw notFound("workspace_not_found", `No workspace ${workspaceId}.`, "workspace");
  const endpointId = newId("wh");
  const secret = newSigningSecret();
  const now = ctx.clock.now();
  await ctx.db.insert(webhookEndpoints).values({
    id: endpointId,
    workspaceId,
    url: url.toString(),
    eventTypes: [...new Set(values.eventTypes as EventType[])],
    signingSecret: secret,
    // Who to ask about it, and what a member's removal lists; the operator's CLI is no member.
    createdByUserId: actor.kind === "user" ? actor.userId : null,
    createdAt: now,
    updatedAt: now,
  });
  return { endpointId, secret };
}

/**
 * Replaces the signing secret. The next attempt of every delivery is signed
 * with the new one; deliveries still being retried (they may have failed
 * because the receiver already expects the new secret) are retried now.
 */
export async function rotateSecret(
  ctx: Ctx,
  actor: Actor,
  endpointId: string,
): Promise<{ secret: string; retried: number }> {
  return withTransaction(ctx, async (tx) => {
    await checkWorkspaceWritable(tx, (await getEndpointOrThrow(tx, actor, endpointId)).workspaceId);
    // The wake lock before the endpoint row, in the order the delivery run takes them.
    await holdWakeLocks(tx, [endpointId]);
    const secret = newSigningSecret();
    const now = tx.clock.now();
    await tx.db
      .update(webhookEndpoints)
      .set({ signingSecret: secret, secretRotatedAt: now, updatedAt: now })
      .where(eq(webhookEndpoints.id, endpointId));
    // Failing ones. Those being posted now with the old secret are retried at once if they fail: recording
    // their attempts locks this row first, and so reads the new secret (deliver-due.ts).
    const retried = await tx.db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: now })
      .where(
        and(
          eq(webhookDeliveries.endpointId, endpointId),
          eq(webhookDeliveries.status, "pending"),
          isNotNull(webhookDeliveries.lastAttemptAt),
        ),
      )
      .returning({ id: webhookDeliveries.id });
    if (retried.length > 0) await askForRuns(tx, [endpointId]);
    return { secret, retried: retried.length };
  });
}

/**
 * Turns a disabled endpoint back on (after its receiver was fixed): it gets
 * events recorded from now on; deliveries given up while it was off stay so.
 */
export async function enableEndpoint(ctx: Ctx, actor: Actor, endpointId: string): Promise<Endpoint> {
  await checkWorkspaceWritable(ctx, (await getEndpointOrThrow(ctx, actor, endpointId)).workspaceId);
  const [endpoint] = await ctx.db
    .update(webhookEndpoints)
    .set({ enabled: true, disabledAt: null, disabledReason: null, failingSince: null, updatedAt: ctx.clock.now() })
    .where(eq(webhookEndpoints.id, endpointId))
    .returning();
  return endpoint!;
}

/** The actor's workspace's endpoints, oldest first, each with its creator's address (null: the operator's CLI, or made before creators were recorded). */
export async function listEndpoints(ctx: Ctx, actor: Actor): Promise<(Endpoint & { createdByEmail: string | null })[]> {
  const rows = await ctx.db
    .select({ endpoint: webhookEndpoints, createdByEmail: users.email })
    .from(webhookEndpoints)
    .leftJoin(users, eq(users.id, webhookEndpoints.createdByUserId))
    .where(inActorWorkspace(actor, webhookEndpoints.workspaceId))
    .orderBy(asc(webhookEndpoints.id));
  return rows.map(({ endpoint, createdByEmail }) => ({ ...endpoint, createdByEmail }));
}

/** Every delivery to an endpoint, oldest first, each with its event type and attempts. */
export async function listDeliveries(ctx: Ctx, actor: Actor, endpointId: string) {
  const endpoint = await getEndpointOrThrow(ctx, actor, endpointId);
  return { endpoint, deliveries: await deliveriesOf(ctx, actor, endpointId) };
}

/**
 * An endpoint's deliveries with their event type and attempts: all, oldest first, or the newest `limit`.
 * Those of another workspace than the actor's are not there: an endpoint id of another workspace lists nothing.
 */
export async function deliveriesOf(ctx: Ctx, actor: Actor, endpointId: string, limit?: number) {
  const query = ctx.db
    .select({ delivery: webhookDeliveries, eventType: events.type })
    .from(webhookDeliveries)
    .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
    .where(and(eq(webhookDeliveries.endpointId, endpointId), inActorWorkspace(actor, webhookDeliveries.workspaceId)))
    .$dynamic();
  const deliveries = await (limit
    ? query.orderBy(desc(webhookDeliveries.id)).limit(limit)
    : query.orderBy(asc(webhookDeliveries.id)));
  const attempts = deliveries.length
    ? await ctx.db
        .select()
        .from(webhookAttempts)
        .where(
          inArray(
            webhookAttempts.deliveryId,
            deliveries.map((row) => row.delivery.id),
          ),
        )
        .orderBy(asc(webhookAttempts.id))
    : [];
  return deliveries.map(({ delivery, eventType }) => ({
    ...delivery,
    eventType,
    attempts: attempts.filter((attempt) => attempt.deliveryId === delivery.id),
  }));
}

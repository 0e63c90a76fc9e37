import { z } from "zod";

// The events that start workflows: each name with the schema of its payload. Domain verbs emit them
// (emit-events.ts); inngest/events.ts makes each the trigger of the functions it starts. Payloads
// carry ids, not rows: a run reads the state of the moment it runs.

/** A double opt-in mail was asked for; the request row says to whom and for which subscription. */
export const confirmationRequested = {
  name: "consent/confirmation.requested",
  schema: z.object({ requestId: z.string() }),
} as const;

/** A double opt-in was confirmed by the person. */
export const subscriptionConfirmed = {
  name: "consent/subscription.confirmed",
  schema: z.object({ subscriptionId: z.string() }),
} as const;

/** Start (or carry on) dispatching a campaign: at its scheduled time, or now. */
export const campaignDispatchRequested = {
  name: "campaign/dispatch.requested",
  schema: z.object({ campaignId: z.string(), at: z.string().nullable() }),
} as const;

/** A campaign's A/B test share is sent: at `at` its winner is chosen by the test's metric, unless a person chose sooner. */
export const campaignAbTestWaiting = {
  name: "campaign/ab-test.waiting",
  schema: z.object({ campaignId: z.string(), at: z.string() }),
} as const;

/** An endpoint has deliveries due (new ones, or a retry at the event's `ts`): its delivery run posts them. */
export const webhookEndpointDue = {
  name: "webhook/endpoint.due",
  schema: z.object({ endpointId: z.string() }),
} as const;

/** Apply a checked import, chunk by chunk, from where it stopped. */
export const contactImportRequested = {
  name: "contacts/import.requested",
  schema: z.object({ importId: z.string() }),
} as const;

/** Carry on a bulk action on contacts, chunk by chunk, from where it stopped. */
export const contactBulkActionRequested = {
  name: "contacts/bulk-action.requested",
  schema: z.object({ bulkActionId: z.string() }),
} as const;

/** A provider's report was stored as received; apply it (outcome, suppression, counters, webhooks). */
export const providerEventReceived = {
  name: "deliverability/provider-event.received",
  schema: z.object({ providerEventId: z.string() }),
} as const;

/** A workspace started down the billing ladder (a failed payment, a plan ending, a trial ending): walk it. */
export const billingLadderStarted = {
  name: "billing/ladder.started",
  schema: z.object({ workspaceId: z.string(), episodeId: z.string() }),
} as const;

/** The episode ended (an invoice settled, a plan chosen): its ladder run is cancelled. */
export const billingLadderEnded = {
  name: "billing/ladder.ended",
  schema: z.object({ episodeId: z.string() }),
} as const;

/** A person entered an automation (docs/readings.md, "Automations"): their run walks the entry's version. */
export const automationEntryStarted = {
  name: "automation/entry.started",
  schema: z.object({ entryId: z.string() }),
} as const;

/** A paused automation was resumed: the runs waiting at a send go on. */
export const automationResumed = {
  name: "automation/resumed",
  schema: z.object({ automationId: z.string() }),
} as const;

/**
 * A custom event was recorded for a contact (POST /v1/events): runs waiting for it go on
 * (`wait_for_event`, matched on `key`, "<contactId>:<name>", and on their automation's brand being
 * one of `brands`), and automations it triggers take the person in. Properties stay in the database
 * row, never in the run's log.
 */
export const contactEventRecorded = {
  name: "contact/event.recorded",
  schema: z.object({
    eventId: z.string(),
    workspaceId: z.string(),
    contactId: z.string(),
    name: z.string(),
    key: z.string(),
    /**
     * The brands whose automations' waits it may wake, each `true`: a brand-locked key's brand only,
     * else every brand of the workspace. A set rather than "null for all" because a wait matches by
     * containment, which cannot say "this brand or none".
     */
    brands: z.record(z.string(), z.literal(true)),
  }),
} as const;

type Definition =
  | typeof confirmationRequested
  | typeof subscriptionConfirmed
  | typeof campaignDispatchRequested
  | typeof campaignAbTestWaiting
  | typeof webhookEndpointDue
  | typeof contactImportRequested
  | typeof contactBulkActionRequested
  | typeof providerEventReceived
  | typeof billingLadderStarted
  | typeof billingLadderEnded
  | typeof automationEntryStarted
  | typeof automationResumed
  | typeof contactEventRecorded;

/** The payload of the workflow event named `N`. */
export type WorkflowEventData<N extends Definition["name"]> = z.infer<Extract<Definition, { name: N }>["schema"]>;

/**
 * One workflow event to emit: its name and payload, an `id` (emitting the same id again starts
 * nothing new) and an optional `ts`, the time before which its runs do not start.
 */
export type WorkflowEvent = {
  [N in Definition["name"]]: { name: N; data: WorkflowEventData<N>; id?: string; ts?: number };
}[Definition["name"]];

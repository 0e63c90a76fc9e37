import { eventType } from "inngest";
import { z } from "zod";

/** A double opt-in mail was asked for; the request row says to whom and for which subscription. */
export const confirmationRequested = eventType("consent/confirmation.requested", {
  schema: z.object({ requestId: z.string() }),
});

/** A double opt-in was confirmed by the person. */
export const subscriptionConfirmed = eventType("consent/subscription.confirmed", {
  schema: z.object({ subscriptionId: z.string() }),
});

/** Start (or carry on) dispatching a campaign: at its scheduled time, or now. */
export const campaignDispatchRequested = eventType("campaign/dispatch.requested", {
  schema: z.object({ campaignId: z.string(), at: z.string().nullable() }),
});

/** An endpoint has deliveries due (new ones, or a retry at the event's `ts`): its delivery run posts them. */
export const webhookEndpointDue = eventType("webhook/endpoint.due", {
  schema: z.object({ endpointId: z.string() }),
});

/** Apply a checked import, chunk by chunk, from where it stopped. */
export const contactImportRequested = eventType("contacts/import.requested", {
  schema: z.object({ importId: z.string() }),
});

/** A provider's report was stored as received; apply it (outcome, suppression, counters, webhooks). */
export const providerEventReceived = eventType("deliverability/provider-event.received", {
  schema: z.object({ providerEventId: z.string() }),
});

/** A workspace started down the billing ladder (a failed payment, a plan ending, a trial ending): walk it. */
export const billingLadderStarted = eventType("billing/ladder.started", {
  schema: z.object({ workspaceId: z.string(), episodeId: z.string() }),
});

/** The episode ended (an invoice settled, a plan chosen): its ladder run is cancelled. */
export const billingLadderEnded = eventType("billing/ladder.ended", {
  schema: z.object({ episodeId: z.string() }),
});

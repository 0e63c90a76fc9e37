import { eventType } from "inngest";

import * as events from "@/lib/events/workflow-events";

// Each workflow event (lib/events/workflow-events.ts, where domain verbs find them) as the trigger of
// the functions it starts; the SDK checks payloads against the same schemas.

export const confirmationRequested = eventType(events.confirmationRequested.name, {
  schema: events.confirmationRequested.schema,
});
export const subscriptionConfirmed = eventType(events.subscriptionConfirmed.name, {
  schema: events.subscriptionConfirmed.schema,
});
export const campaignDispatchRequested = eventType(events.campaignDispatchRequested.name, {
  schema: events.campaignDispatchRequested.schema,
});
export const campaignAbTestWaiting = eventType(events.campaignAbTestWaiting.name, {
  schema: events.campaignAbTestWaiting.schema,
});
export const webhookEndpointDue = eventType(events.webhookEndpointDue.name, {
  schema: events.webhookEndpointDue.schema,
});
export const contactImportRequested = eventType(events.contactImportRequested.name, {
  schema: events.contactImportRequested.schema,
});
export const contactBulkActionRequested = eventType(events.contactBulkActionRequested.name, {
  schema: events.contactBulkActionRequested.schema,
});
export const providerEventReceived = eventType(events.providerEventReceived.name, {
  schema: events.providerEventReceived.schema,
});
export const billingLadderStarted = eventType(events.billingLadderStarted.name, {
  schema: events.billingLadderStarted.schema,
});
export const billingLadderEnded = eventType(events.billingLadderEnded.name, {
  schema: events.billingLadderEnded.schema,
});
export const automationEntryStarted = eventType(events.automationEntryStarted.name, {
  schema: events.automationEntryStarted.schema,
});
export const automationResumed = eventType(events.automationResumed.name, {
  schema: events.automationResumed.schema,
});
export const contactEventRecorded = eventType(events.contactEventRecorded.name, {
  schema: events.contactEventRecorded.schema,
});

import { z } from "zod";

// Schemas only (no database): the dashboard's forms check input in the browser with the same rules.
// The URL and the event types are checked by createEndpoint (webhook_target_refused, known types),
// which needs the network and the event list.

/** No event types means every event. The workspace is the actor's, never a field of the input. */
export const createEndpointSchema = z.strictObject({
  url: z.string(),
  eventTypes: z.array(z.string()).default([]),
});
export type CreateEndpointInput = z.input<typeof createEndpointSchema>;

import { eventType } from "inngest";
import { z } from "zod";

/** A double opt-in mail was asked for; the request row says to whom and for which subscription. */
export const confirmationRequested = eventType("consent/confirmation.requested", {
  schema: z.object({ requestId: z.string() }),
});

import { systemActor } from "@/lib/actor";
import { eventBody } from "@/lib/contact-events/contact-event-schema";
import { recordContactEvent } from "@/lib/contact-events/record-contact-event";
import { validationFailed } from "@/lib/errors";
import { parseInput } from "@/lib/validation/parse-input";

import { str, string, type AdminCommand } from "./admin-command";

/** Custom events, as POST /v1/events records them: to try an event-triggered automation without a key. */
export const eventCommands: Record<string, AdminCommand> = {
  "event:send": {
    summary:
      "--workspace ID (--contact ID | --email ADDRESS) --name NAME [--properties JSON] [--occurred-at TIMESTAMP]   (as POST /v1/events)",
    options: {
      workspace: string,
      contact: string,
      email: string,
      name: string,
      properties: string,
      "occurred-at": string,
    },
    required: ["workspace", "name"],
    run: async (ctx, v) => {
      let properties: unknown;
      try {
        properties = v.properties === undefined ? undefined : JSON.parse(str(v, "properties"));
      } catch (error) {
        throw validationFailed("properties", `properties: not JSON (${(error as Error).message}).`);
      }
      const body = parseInput(eventBody, {
        contact_id: v.contact,
        email: v.email,
        name: v.name,
        properties,
        occurred_at: v["occurred-at"],
      });
      const occurredAt = body.occurred_at ? new Date(body.occurred_at) : ctx.clock.now();
      const recorded = await recordContactEvent(ctx, systemActor("admin-cli", str(v, "workspace")), {
        contactId: body.contact_id,
        email: body.email,
        name: body.name,
        properties: body.properties ?? {},
        occurredAt,
      });
      return {
        id: recorded.id,
        contact_id: recorded.contactId,
        name: body.name,
        occurred_at: occurredAt.toISOString(),
        entered: recorded.entered,
      };
    },
  },
};

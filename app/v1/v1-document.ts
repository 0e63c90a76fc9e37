import { buildOpenApi } from "@/lib/api/openapi/build-openapi";
import { EVENT_TYPES } from "@/lib/events/event-types";
import { webhookBody, webhookFires } from "@/lib/webhooks/event-schemas";

import packageJson from "../../package.json";
import { V1_ROUTES } from "./v1-routes";

let built: Record<string, unknown> | undefined;

/** The OpenAPI document of this service's /v1 and its webhooks (built once per process). */
export function v1Document(): Record<string, unknown> {
  built ??= buildOpenApi(V1_ROUTES, {
    version: packageJson.version,
    webhooks: EVENT_TYPES.map((type) => ({ type, fires: webhookFires(type), body: webhookBody(type) })),
  });
  return built;
}

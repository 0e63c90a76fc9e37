import { methodsNotAllowed } from "@/lib/api/methods-not-allowed";
import { startRequestLog } from "@/lib/api/request-log";

import { v1Document } from "../v1-document";

// GET /v1/openapi.json — the API's own description, OpenAPI 3.1; no key needed.
export function GET(request: Request): Response {
  const log = startRequestLog(request);
  return log.done(
    Response.json(v1Document(), {
      headers: log.headers({ "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" }),
    }),
  );
}

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed("GET");

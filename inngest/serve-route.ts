import { serve } from "inngest/next";

import { errorResponse } from "@/lib/api/error-response";
import { notFound } from "@/lib/errors";
import { workflowsAreEmbedded } from "@/lib/runtime/workflow-mode";

import { inngest } from "./client";
import { functions } from "./index";

type Handler = (request: Request, context: unknown) => Promise<Response>;

/**
 * The handlers of /api/inngest. Embedded, the route does not exist: the
 * executor calls the SDK in-process, and an open endpoint would let anyone
 * replay functions with forged step results. With an Inngest server, the SDK
 * checks every request's signature (production refuses to start without the
 * key, see workflowConfigProblem), and an answer to a caller whose signature
 * failed loses its stack traces.
 */
export function workflowRouteHandlers(): { GET: Handler; POST: Handler; PUT: Handler } {
  const served = serve({ client: inngest, functions }) as unknown as Record<"GET" | "POST" | "PUT", Handler>;
  const guard =
    (handler: Handler): Handler =>
    async (request, context) => {
      if (workflowsAreEmbedded()) return errorResponse(notFound("route_not_found", "Not found."));
      return withoutStackTraces(await handler(request, context));
    };
  return { GET: guard(served.GET), POST: guard(served.POST), PUT: guard(served.PUT) };
}

/** A signed answer goes to the verified Inngest server, and rewriting it would break its signature. */
async function withoutStackTraces(response: Response): Promise<Response> {
  if (response.headers.has("x-inngest-signature") || !(response.headers.get("content-type") ?? "").includes("json"))
    return response;
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return new Response(text, response);
  }
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(
    JSON.stringify(body, (key, value: unknown) => (key === "stack" ? undefined : value)),
    { status: response.status, statusText: response.statusText, headers },
  );
}

import { errorResponse } from "@/lib/api/error-response";
import { startRequestLog } from "@/lib/api/request-log";
import { notFound } from "@/lib/errors";

// Any other /v1 path: a JSON 404 in the contract's shape rather than an HTML page.
function unknownRoute(request: Request): Response {
  const log = startRequestLog(request);
  return log.done(
    errorResponse(
      notFound("route_not_found", `No route ${request.method} ${new URL(request.url).pathname}.`),
      log.headers(),
    ),
  );
}

export {
  unknownRoute as GET,
  unknownRoute as POST,
  unknownRoute as PUT,
  unknownRoute as PATCH,
  unknownRoute as DELETE,
};

import { errorResponse } from "@/lib/api/error-response";
import { notFound } from "@/lib/errors";

// Any other /v1 path: a JSON 404 in the contract's shape rather than an HTML page.
function unknownRoute(request: Request): Response {
  return errorResponse(notFound("route_not_found", `No route ${request.method} ${new URL(request.url).pathname}.`));
}

export { unknownRoute as GET, unknownRoute as POST, unknownRoute as PUT, unknownRoute as PATCH, unknownRoute as DELETE };

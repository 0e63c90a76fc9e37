import { ApiError } from "@/lib/errors";

import { errorResponse } from "./error-response";
import { startRequestLog } from "./request-log";

export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

type Handler = ((request: Request) => Response) & { notAllowed: true };

/**
 * The answers for the methods a /v1 path does not serve: 405
 * `method_not_allowed` in the contract's shape with an `Allow` header, where
 * Next.js alone would answer an empty 405. A route file exports them beside
 * its own handlers, so every method of every path answers in JSON:
 * `export const { PUT, PATCH, DELETE } = methodsNotAllowed("GET", "POST");`
 */
export function methodsNotAllowed<A extends HttpMethod>(...allowed: A[]): Record<Exclude<HttpMethod, A>, Handler> {
  const allow = allowed.join(", ");
  const handler = Object.assign(
    (request: Request) => {
      const log = startRequestLog(request);
      const refusal = new ApiError({
        type: "invalid_request_error",
        code: "method_not_allowed",
        status: 405,
        message: `${new URL(request.url).pathname} does not accept ${request.method}; it accepts ${allow}.`,
      });
      return log.done(errorResponse(refusal, log.headers({ Allow: allow })));
    },
    { notAllowed: true as const },
  );
  const others = HTTP_METHODS.filter((method) => !(allowed as HttpMethod[]).includes(method));
  return Object.fromEntries(others.map((method) => [method, handler])) as Record<Exclude<HttpMethod, A>, Handler>;
}

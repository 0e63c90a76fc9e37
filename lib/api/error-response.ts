import { ApiError } from "@/lib/errors";
import { logger } from "@/lib/log/logger";

import type { RequestLog } from "./request-log";

/** The contract's error shape: `{ error: { type, code, message, param? } }`. */
export function errorResponse(error: ApiError, headers: Record<string, string> = {}): Response {
  const body = {
    error: {
      type: error.type,
      code: error.code,
      message: error.message,
      ...(error.param ? { param: error.param } : {}),
    },
  };
  return Response.json(body, { status: error.status, headers: { ...headers, ...error.headers } });
}

/** Anything that is not an ApiError is a fault of ours: logged (under the request's id when there is one), never shown. */
export function toErrorResponse(
  error: unknown,
  headers: Record<string, string> = {},
  log?: Pick<RequestLog, "fault">,
): Response {
  if (error instanceof ApiError) return errorResponse(error, headers);
  if (log) log.fault(error);
  else logger().error({ err: error }, "unhandled error in a route");
  return errorResponse(
    new ApiError({
      type: "api_error",
      code: "internal_error",
      message: "Something went wrong on our side. Retry with backoff.",
    }),
    headers,
  );
}

import { ApiError } from "@/lib/errors";

/** The contract's error shape: `{ error: { type, code, message, param? } }`. */
export function errorResponse(error: ApiError, headers: Record<string, string> = {}): Response {
  const body = { error: { type: error.type, code: error.code, message: error.message, ...(error.param ? { param: error.param } : {}) } };
  return Response.json(body, { status: error.status, headers: { ...headers, ...error.headers } });
}

/** Anything that is not an ApiError is a fault of ours: logged, never shown. */
export function toErrorResponse(error: unknown, headers: Record<string, string> = {}): Response {
  if (error instanceof ApiError) return errorResponse(error, headers);
  console.error("unhandled error in a route", error);
  return errorResponse(new ApiError({ type: "api_error", code: "internal_error", message: "Something went wrong on our side. Retry with backoff." }), headers);
}

import { documentedErrors } from "@/lib/api/openapi/build-openapi";
import { errorBody } from "@/lib/api/response-schemas";

import type { V1Answer } from "./send-to-v1";

// The contract's types by status, with the two statuses docs/readings.md adds to invalid_request_error.
const TYPE_BY_STATUS: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  405: "invalid_request_error",
  413: "invalid_request_error",
  429: "rate_limit_error",
};

/** How a malformed request was answered. */
export type Verdict =
  | { kind: "refused"; status: number; code: string }
  | { kind: "server_error"; status: number; body: string }
  /** A 4xx that breaks the contract's error shape, or a status the contract has no type for. */
  | { kind: "bad_shape"; status: number; problem: string; body: string }
  /** Anything else (2xx, 3xx): a request malformed by construction that the service did not refuse. */
  | { kind: "accepted"; status: number; body: string }
  /** OPTIONS, which a browser sends without a key: answered by the route or by Next.js, never refused. */
  | { kind: "preflight"; status: number };

/**
 * Judges one answer to a malformed request: a 4xx must be the contract's
 * `{ error: { type, code, message, param? } }` with the type its status
 * stands for, a code the OpenAPI document lists for the route at that status,
 * the headers that go with it (Retry-After, Allow, Request-Id) and `param` on
 * validation_failed. A 5xx is a fault; a 2xx is a malformed request let through.
 */
export async function judgeAnswer(method: string, { response, spec, path }: V1Answer): Promise<Verdict> {
  const text = method === "HEAD" && response.status < 400 ? "" : await response.text();
  const { status } = response;
  if (method === "OPTIONS" && status < 300) return { kind: "preflight", status };
  if (status >= 500) return { kind: "server_error", status, body: text.slice(0, 500) };
  if (status < 400) return { kind: "accepted", status, body: text.slice(0, 500) };
  const bad = (problem: string): Verdict => ({ kind: "bad_shape", status, problem, body: text.slice(0, 500) });

  if (!TYPE_BY_STATUS[status]) return bad(`status ${status} has no error type in the contract`);
  if (!/^application\/json\b/.test(response.headers.get("content-type") ?? ""))
    return bad(`content-type ${response.headers.get("content-type")}`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return bad("the body is not JSON");
  }
  const parsed = errorBody.safeParse(body);
  if (!parsed.success) return bad(`not the error shape: ${parsed.error.issues[0]?.message}`);
  const { type, code, param } = parsed.data.error;
  if (type !== TYPE_BY_STATUS[status]) return bad(`type ${type} with status ${status}`);
  if (!response.headers.get("request-id")) return bad("no Request-Id header");
  if (status === 429 && !/^\d+$/.test(response.headers.get("retry-after") ?? "")) return bad("429 without Retry-After");
  if (status === 405 && !response.headers.get("allow")) return bad("405 without Allow");
  if (code === "validation_failed" && !param) return bad("validation_failed without param");
  const listed =
    path === null
      ? [{ status: 404, code: "route_not_found" }]
      : spec
        ? documentedErrors(spec)
        : [{ status: 405, code: "method_not_allowed" }];
  if (!listed.some((error) => error.status === status && error.code === code))
    return bad(`${status} ${code} is not a documented error of ${method} ${path ?? "an unknown path"}`);
  return { kind: "refused", status, code };
}

import { env } from "@/lib/env";
import { newId } from "@/lib/ids";

/** The header every /v1 answer carries: quote it when reporting a problem; the log line has it too. */
export const REQUEST_ID_HEADER = "Request-Id";

export interface RequestLog {
  id: string;
  /** Adds the request id to an answer's headers. */
  headers(extra?: Record<string, string>): Record<string, string>;
  /** Logs a fault of ours (never shown to the client) under the request's id. */
  fault(error: unknown): void;
  /** One access line per answer, in production: who asked what, the status and the time taken. */
  done(response: Response): Response;
}

/** A request's id and its log lines, from arrival to answer. */
export function startRequestLog(request: Request): RequestLog {
  const id = newId("req");
  const started = performance.now();
  const { pathname } = new URL(request.url);
  return {
    id,
    headers: (extra = {}) => ({ ...extra, [REQUEST_ID_HEADER]: id }),
    fault(error) {
      console.error(JSON.stringify({ level: "error", request_id: id, method: request.method, path: pathname, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }));
    },
    done(response) {
      if (env().NODE_ENV === "production") {
        console.log(JSON.stringify({ level: "info", request_id: id, method: request.method, path: pathname, status: response.status, ms: Math.round(performance.now() - started) }));
      }
      return response;
    },
  };
}

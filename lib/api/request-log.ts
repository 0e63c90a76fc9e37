import { newId } from "@/lib/ids";
import { logger } from "@/lib/log/logger";

/** The header every /v1 answer carries: quote it when reporting a problem; the log line has it too. */
export const REQUEST_ID_HEADER = "Request-Id";

/** Who asked, once the key is known: never the key itself, only its id and the label the dashboard shows. */
export interface RequestCaller {
  workspaceId: string;
  keyId: string;
  /** e.g. `sk_live_…a1b2`. */
  keyLabel: string;
}

export interface RequestLog {
  id: string;
  /** Adds the request id to an answer's headers. */
  headers(extra?: Record<string, string>): Record<string, string>;
  /** The path's pattern, its parameters named (`/v1/contacts/{id}`), for grouping lines by route. */
  route(params: Record<string, string>): void;
  identify(caller: RequestCaller): void;
  /** Ends a stage of the pipeline (`authenticate`, `input`, `handler`): the line gives each stage's milliseconds, for finding where a route's time goes. */
  stage(name: string): void;
  /** A fault of ours (never shown to the client): the request's line carries it, with its stack. */
  fault(error: unknown): void;
  /** Writes the request's one line: who asked what, the status and the time taken. */
  done(response: Response): Response;
}

/** A request's id and its log line, from arrival to answer. */
export function startRequestLog(request: Request): RequestLog {
  const id = newId("req");
  const started = performance.now();
  // The path without its query, which may carry addresses (`?email=`); ids in the path are no secret.
  const { pathname } = new URL(request.url);
  let route: string | undefined;
  let caller: RequestCaller | undefined;
  let error: unknown;
  const stages: Record<string, number> = {};
  let stageStarted = started;
  return {
    id,
    headers: (extra = {}) => ({ ...extra, [REQUEST_ID_HEADER]: id }),
    route(params) {
      route = Object.entries(params).reduce((path, [name, value]) => namePathSegment(path, name, value), pathname);
    },
    identify(known) {
      caller = known;
    },
    stage(name) {
      const now = performance.now();
      stages[name] = Math.round((now - stageStarted) * 100) / 100;
      stageStarted = now;
    },
    fault(fault) {
      error = fault;
    },
    done(response) {
      const line = {
        request_id: id,
        method: request.method,
        route,
        path: pathname,
        status: response.status,
        duration_ms: Math.round((performance.now() - started) * 100) / 100,
        stages_ms: stages,
        workspace_id: caller?.workspaceId,
        key_id: caller?.keyId,
        key_prefix: caller?.keyLabel,
      };
      if (error === undefined) logger().info(line, "api request");
      else logger().error({ ...line, err: error }, "api request failed");
      return response;
    },
  };
}

/** `/v1/lists/ls_1/members` → `/v1/lists/{id}/members`: the last whole segment(s) equal to the value. */
function namePathSegment(path: string, name: string, value: string): string {
  const segment = `/${value.split("/").map(encodeURIComponent).join("/")}`;
  const at = path.lastIndexOf(segment);
  const whole = value !== "" && at >= 0 && (path.length === at + segment.length || path[at + segment.length] === "/");
  return whole ? `${path.slice(0, at)}/{${name}}${path.slice(at + segment.length)}` : path;
}

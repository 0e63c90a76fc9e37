import * as contact from "@/app/v1/contacts/[id]/route";
import * as contacts from "@/app/v1/contacts/route";
import * as listMembers from "@/app/v1/lists/[id]/members/route";
import * as lists from "@/app/v1/lists/route";
import * as activityReport from "@/app/v1/reports/activity/route";
import * as campaignReport from "@/app/v1/reports/campaigns/route";
import * as summaryReport from "@/app/v1/reports/summary/route";
import * as subscribe from "@/app/v1/subscribe/route";
import * as suppression from "@/app/v1/suppressions/[id]/route";
import * as suppressions from "@/app/v1/suppressions/route";
import * as topics from "@/app/v1/topics/route";

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response> | Response;

// The same path → handler mapping as the app/ folder, so tests call the real route exports.
const ROUTES: [RegExp, Record<string, unknown>][] = [
  [/^\/v1\/subscribe$/, subscribe],
  [/^\/v1\/contacts$/, contacts],
  [/^\/v1\/contacts\/(?<id>[^/]+)$/, contact],
  [/^\/v1\/topics$/, topics],
  [/^\/v1\/lists$/, lists],
  [/^\/v1\/lists\/(?<id>[^/]+)\/members$/, listMembers],
  [/^\/v1\/suppressions$/, suppressions],
  [/^\/v1\/suppressions\/(?<id>[^/]+)$/, suppression],
  [/^\/v1\/reports\/summary$/, summaryReport],
  [/^\/v1\/reports\/campaigns$/, campaignReport],
  [/^\/v1\/reports\/activity$/, activityReport],
];

export interface ApiResponse {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON shapes
  body: any;
}

export interface CallOptions {
  key?: string | null;
  body?: unknown;
  /** Sent as is, for malformed-body tests. */
  rawBody?: string;
  headers?: Record<string, string>;
}

/** Calls a /v1 route handler through the full pipeline, as Next.js would. */
export async function callApi(method: string, path: string, options: CallOptions = {}): Promise<ApiResponse> {
  const url = new URL(path, "http://localhost:3000");
  const match = ROUTES.map(([pattern, module]) => ({ found: pattern.exec(url.pathname), module })).find((r) => r.found);
  if (!match) throw new Error(`no route for ${path}`);
  const handler = match.module[method] as Handler | undefined;
  if (!handler) throw new Error(`${method} is not exported for ${path}`);
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization ??= `Bearer ${options.key}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const response = await handler(new Request(url, { method, headers, body }), { params: Promise.resolve({ ...match.found!.groups }) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

/** A client bound to one key. */
export function apiClient(key: string | null) {
  return {
    get: (path: string, options: CallOptions = {}) => callApi("GET", path, { key, ...options }),
    post: (path: string, body?: unknown, options: CallOptions = {}) => callApi("POST", path, { key, body, ...options }),
    delete: (path: string, body?: unknown, options: CallOptions = {}) => callApi("DELETE", path, { key, body, ...options }),
  };
}

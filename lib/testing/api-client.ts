import { V1_ROUTES } from "@/app/v1/v1-routes";
import { documentedErrors } from "@/lib/api/openapi/build-openapi";
import { errorBody } from "@/lib/api/response-schemas";
import type { RouteSpec } from "@/lib/api/route-doc";

type Handler = ((
  request: Request,
  context: { params: Promise<Record<string, string>> },
) => Promise<Response> | Response) & { spec?: RouteSpec };

// The paths of the OpenAPI document as patterns, so tests call the real route exports as Next.js would.
const ROUTES = V1_ROUTES.map(({ path, module }) => ({
  pattern: new RegExp(`^${path.replace(/\{(\w+)\}/g, "(?<$1>[^/]+)")}$`),
  module,
}));

/**
 * Every answer a route test receives must be one the document describes: a
 * success body matching the route's documented schema for that status, an
 * error in the error shape, or a bodiless 304 where the route has an ETag.
 * So the route tests are also the test that the OpenAPI document tells the truth.
 */
function checkDocumented(method: string, path: string, handler: Handler, status: number, body: unknown): void {
  const doc = handler.spec?.doc;
  if (!doc) return; // a 405 answer of a method the path does not serve
  const where = `${method} ${path} answered ${status}`;
  if (status === 304) {
    if (!doc.etag || body !== null) throw new Error(`${where}, which the document does not describe`);
    return;
  }
  const success = doc.responses[status as 200 | 201];
  const schema = success ? success.schema : status >= 400 ? errorBody : null;
  if (!schema) throw new Error(`${where}, a status the document does not list`);
  const checked = schema.safeParse(body);
  if (!checked.success)
    throw new Error(`${where} with a body the document does not describe: ${checked.error.message}`);
  if (status >= 400) {
    const code = (body as { error: { code: string } }).error.code;
    if (!documentedErrors(handler.spec!).some((e) => e.status === status && e.code === code))
      throw new Error(`${where} ${code}, an error the document does not list for it`);
  }
}

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
  const match = ROUTES.map(({ pattern, module }) => ({ found: pattern.exec(url.pathname), module })).find(
    (r) => r.found,
  );
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
  const response = await handler(new Request(url, { method, headers, body }), {
    params: Promise.resolve({ ...match.found!.groups }),
  });
  const text = await response.text();
  const parsed = text ? JSON.parse(text) : null;
  checkDocumented(method, url.pathname, handler, response.status, parsed);
  return { status: response.status, headers: response.headers, body: parsed };
}

/** A client bound to one key. */
export function apiClient(key: string | null) {
  return {
    get: (path: string, options: CallOptions = {}) => callApi("GET", path, { key, ...options }),
    post: (path: string, body?: unknown, options: CallOptions = {}) => callApi("POST", path, { key, body, ...options }),
    delete: (path: string, body?: unknown, options: CallOptions = {}) =>
      callApi("DELETE", path, { key, body, ...options }),
  };
}

import { autoImplementMethods } from "next/dist/server/route-modules/app-route/helpers/auto-implement-methods";
import type { AppRouteHandlers } from "next/dist/server/route-modules/app-route/module";
import { isHTTPMethod } from "next/dist/server/web/http";

import * as unknownPath from "@/app/v1/[...path]/route";
import { V1_ROUTES } from "@/app/v1/v1-routes";
import type { RouteSpec } from "@/lib/api/route-doc";

type Handler = ((
  request: Request,
  context: { params: Promise<Record<string, string | string[]>> },
) => Promise<Response> | Response) & { spec?: RouteSpec };

// The documented paths as patterns (a segment is anything but a slash, as Next.js matches it); the catch-all last.
const ROUTES = V1_ROUTES.map(({ path, module }) => ({
  path,
  pattern: new RegExp(`^${path.replace(/\{(\w+)\}/g, "(?<$1>[^/]+)")}$`),
  module,
}));

/** The answer, and what answered it. */
export interface V1Answer {
  response: Response;
  /** The documented path that matched, or null for the catch-all's `route_not_found`. */
  path: string | null;
  /** The handler's spec when an apiRoute answered; none for a 405 of methodsNotAllowed or Next's own OPTIONS. */
  spec: RouteSpec | undefined;
}

/**
 * Hands a raw Request to the /v1 route that Next.js would pick, as Next.js
 * would: path parameters percent-decoded, HEAD served by GET and OPTIONS
 * answered for routes that do not export them (Next's own autoImplementMethods),
 * unknown paths to the catch-all. Unlike callApi it never throws on an
 * undocumented answer: the caller judges the answer.
 */
export async function sendToV1(request: Request): Promise<V1Answer> {
  const { pathname } = new URL(request.url);
  if (!isHTTPMethod(request.method))
    throw new Error(`Next.js refuses ${request.method} before any route code; do not send it`);
  const match = ROUTES.map((route) => ({ route, found: route.pattern.exec(pathname) })).find(({ found }) => found);
  const routeModule = (match?.route.module ?? unknownPath) as AppRouteHandlers;
  const params: Record<string, string | string[]> = match
    ? Object.fromEntries(
        Object.entries(match.found!.groups ?? {}).map(([name, value]) => [name, decodeURIComponent(value)]),
      )
    : { path: pathname.split("/").slice(2).map(decodeURIComponent) };
  const handlers = autoImplementMethods(routeModule);
  const own = (routeModule as Record<string, Handler | undefined>)[
    request.method === "HEAD" && !routeModule.HEAD ? "GET" : request.method
  ];
  const handler = handlers[request.method] as unknown as Handler;
  const response = await handler(request, { params: Promise.resolve(params) });
  return { response, path: match?.route.path ?? null, spec: own?.spec };
}

import { z } from "zod";

import { apiKeyActor, type WorkspaceActor } from "@/lib/actor";
import { defaultCtx, type Ctx } from "@/lib/context";
import { ApiError } from "@/lib/errors";
import { refuseUnsafeInput } from "@/lib/validation/parse-input";

import { authenticate, type AuthenticatedKey } from "./authenticate";
import { BROWSER_REFUSALS, checkKeyUse } from "./check-key-use";
import { corsHeaders } from "./cors";
import { toErrorResponse } from "./error-response";
import { parsePageRequest, type PageRequest } from "./pagination";
import { rateLimited, rateLimitHeaders, type Bucket } from "./rate-limit";
import { readJsonBody, readQuery, refuseBody } from "./read-input";
import { startRequestLog } from "./request-log";
import type { RouteDoc, RouteSpec } from "./route-doc";

interface RouteOptions<Q extends z.ZodType, B extends z.ZodType> {
  /** `any` admits publishable keys too: only POST /v1/subscribe. */
  key: "secret" | "any";
  bucket: Bucket;
  query?: Q;
  /** Accepts `limit` and `cursor` (see Pagination). */
  paginated?: boolean;
  body?: B;
  /** Answers browsers (CORS): only POST /v1/subscribe. */
  cors?: boolean;
  /** The route's entry in the OpenAPI document. */
  doc: RouteDoc;
}

export interface RouteInput<Q, B> {
  ctx: Ctx;
  /** The key, acting in its workspace with its brand lock and mode. */
  actor: WorkspaceActor;
  key: AuthenticatedKey;
  query: Q;
  body: B;
  params: Record<string, string>;
  /** Present on paginated routes; `scope` binds cursors to the list they came from. */
  page: PageRequest & { scope: string };
  /** The request's `If-None-Match`, for routes that answer 304 (reports). */
  ifNoneMatch: string | null;
}

export type RouteResult = {
  status?: number;
  headers?: Record<string, string>;
} & (
  | {
      /** Ignored for a 304, which has no body. */
      body: unknown;
    }
  | {
      /** The body already serialized (by PostgreSQL, on the busiest list). */
      json: string;
    }
);

type NextContext = { params: Promise<Record<string, string | string[]>> };

/**
 * The /v1 pipeline, in order: Authorization → key by hash → revoked →
 * publishable keys only on subscribe → no secret key from a browser (any
 * Origin) → origin allowlist → inactive workspace
 * → rate limit (counted by the look-up) → strict input → handler. Every error leaves in the contract's
 * shape, every answer from a known key carries the RateLimit headers (those
 * refused before the rate limit without being counted), and every answer its
 * Request-Id.
 */
export function apiRoute<
  Q extends z.ZodType = z.ZodObject<Record<string, never>>,
  B extends z.ZodType = z.ZodUndefined,
>(options: RouteOptions<Q, B>, handler: (input: RouteInput<z.infer<Q>, z.infer<B>>) => Promise<RouteResult>) {
  const route = async (request: Request, context: NextContext): Promise<Response> => {
    const log = startRequestLog(request);
    const origin = request.headers.get("origin");
    let headers: Record<string, string> = options.cors ? corsHeaders(origin) : {};
    try {
      const params = await resolveParams(context);
      log.route(params);
      const ctx = defaultCtx();
      const use = {
        bucket: options.bucket,
        allowsPublishable: options.key === "any",
        origin,
        write: request.method !== "GET" && request.method !== "HEAD",
      };
      const { key, limits, retryAfterSeconds, counted } = await authenticate(
        ctx,
        request.headers.get("authorization"),
        use,
      );
      log.identify(key);
      log.stage("authenticate");
      try {
        checkKeyUse(key, use);
      } catch (error) {
        if (error instanceof ApiError && BROWSER_REFUSALS.has(error.code)) headers = {};
        // Refused before the rate limit: reported, not counted (the look-up skipped the count).
        headers = { ...headers, ...rateLimitHeaders(limits) };
        throw error;
      }
      headers = { ...headers, ...rateLimitHeaders(limits) };
      // The look-up counts exactly the requests the checks above admit; a difference is a fault of ours.
      if (!counted) throw new Error("the key look-up did not count a request that its checks admit");
      if (retryAfterSeconds !== null) throw rateLimited(limits, retryAfterSeconds);

      const url = new URL(request.url);
      refuseUnsafeInput(params); // `/v1/contacts/%00`: no id holds a NUL, and PostgreSQL would fail the look-up
      const query = readQuery(
        url.searchParams,
        options.query ?? z.strictObject({}),
        options.paginated ?? false,
      ) as z.infer<Q>;
      const scope = `${url.pathname}|${key.workspaceId}|${key.brandId ?? ""}|${JSON.stringify(query)}`;
      const page = options.paginated
        ? { ...parsePageRequest(url.searchParams, scope), scope }
        : { limit: 0, afterId: null, scope };
      if (!options.body) refuseBody(request);
      const body = (options.body ? await readJsonBody(request, options.body) : undefined) as z.infer<B>;
      const actor = apiKeyActor({
        keyId: key.keyId,
        workspaceId: key.workspaceId,
        brandId: key.brandId,
        mode: key.environment,
      });
      log.stage("input");

      const result = await handler({
        ctx,
        actor,
        key,
        query,
        body,
        params,
        page,
        ifNoneMatch: request.headers.get("if-none-match"),
      });
      log.stage("handler");
      headers = log.headers({ ...headers, ...result.headers });
      if (result.status === 304) return log.done(new Response(null, { status: 304, headers }));
      const status = result.status ?? 200;
      if ("json" in result)
        return log.done(
          new Response(result.json, { status, headers: { ...headers, "content-type": "application/json" } }),
        );
      return log.done(Response.json(result.body, { status, headers }));
    } catch (error) {
      return log.done(toErrorResponse(error, log.headers(headers), log));
    }
  };
  const spec: RouteSpec = options;
  return Object.assign(route, { spec });
}

async function resolveParams(context: NextContext | undefined): Promise<Record<string, string>> {
  const raw = context?.params ? await context.params : {};
  return Object.fromEntries(
    Object.entries(raw).map(([name, value]) => [name, Array.isArray(value) ? value.join("/") : value]),
  );
}

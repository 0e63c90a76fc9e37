import "server-only";

import { z } from "zod";

import type { UserActor } from "@/lib/actor";
import { toErrorResponse } from "@/lib/api/error-response";
import { readQuery } from "@/lib/api/read-input";
import { currentUser } from "@/lib/auth/current-user";
import type { Ctx } from "@/lib/context";
import { ApiError, notFound } from "@/lib/errors";
import { readBodyCapped } from "@/lib/http/read-body-capped";
import { logger } from "@/lib/log/logger";
import { appUrl } from "@/lib/runtime/app-url";
import { checkWorkspaceWritable } from "@/lib/workspaces/check-workspace-writable";

import { findWorkspaceSession } from "./workspace-session";

export interface DashboardReadInput<Q> {
  ctx: Ctx;
  actor: UserActor;
  query: Q;
  /** The route's other path parameters (a campaign id). */
  params: Record<string, string>;
}

type WorkspaceContext = { params: Promise<Record<string, string>> };

// Figures of one signed-in member: never kept by a shared cache, never reused after sign-out.
const NO_STORE = { "cache-control": "private, no-store" };

/** The member's session in the workspace the path names: 401 when nobody is signed in, 404 when not a member. */
async function sessionOf(context: WorkspaceContext) {
  const user = await currentUser();
  if (!user)
    throw new ApiError({
      type: "authentication_error",
      code: "not_signed_in",
      message: "Sign in to the dashboard first.",
    });
  const { workspaceId = "", ...params } = await context.params;
  const session = await findWorkspaceSession(workspaceId);
  if (!session) throw notFound("workspace_not_found", "No such workspace among yours.");
  return { session, params };
}

/**
 * A session-authenticated JSON read under `/api/dashboard/w/[workspaceId]/…`,
 * for the dashboard's live reads (TanStack Query). The session cookie, not a
 * key: 401 when nobody is signed in, 404 when the user is not a member (another
 * workspace looks like none), strict query parameters, the contract's error
 * shape. The dashboard changes things through server actions, but for uploads.
 */
export function dashboardRead<Q extends z.ZodType>(
  query: Q,
  handler: (input: DashboardReadInput<z.infer<Q>>) => Promise<unknown>,
  options: {
    /** A file for the member to save (a contact's data): its name, given the route's path parameters. */
    download?: (params: Record<string, string>) => string;
  } = {},
) {
  const read = async (request: Request, context: WorkspaceContext): Promise<Response> => {
    try {
      const { session, params } = await sessionOf(context);
      const input = readQuery(new URL(request.url).searchParams, query, false) as z.infer<Q>;
      const result = await handler({ ctx: session.ctx, actor: session.actor, query: input, params });
      if (!options.download) return Response.json(result, { headers: NO_STORE });
      // Indented: the file is read by people (the person it is about, asking what is held on them).
      return new Response(JSON.stringify(result, null, 2), {
        headers: {
          ...NO_STORE,
          "content-type": "application/json; charset=utf-8",
          "content-disposition": `attachment; filename="${options.download(params).replace(/[^\w.-]/g, "_")}"`,
        },
      });
    } catch (error) {
      return toErrorResponse(error, NO_STORE);
    }
  };
  // The query schema rides along, so a test can find every id a route takes (app/tenant-matrix.test.ts).
  return Object.assign(read, { query });
}

/** A browser names the page's origin on every POST: another site's is refused. APP_URL's origin behind a proxy, the request's own when reached directly. */
function checkSameOrigin(request: Request): void {
  const origin = request.headers.get("origin");
  if (!origin || (origin !== new URL(appUrl()).origin && origin !== new URL(request.url).origin)) {
    throw new ApiError({
      type: "permission_error",
      code: "cross_site_request",
      message: "Upload from the dashboard's own pages.",
    });
  }
}

/**
 * A file sent by the dashboard (the body is the file's bytes, at most
 * `maxBytes`: 413 past it). Same session checks as a read, the request
 * must come from the dashboard's own pages, and the billing ladder must allow changes.
 */
export function dashboardUpload(
  maxBytes: number,
  handler: (input: { ctx: Ctx; actor: UserActor; bytes: Buffer }) => Promise<unknown>,
) {
  return dashboardStreamUpload(async ({ ctx, actor, request }) =>
    handler({ ctx, actor, bytes: Buffer.from(await readBodyCapped(request, maxBytes)) }),
  );
}

/**
 * A large file sent by the dashboard, read as it arrives by the handler
 * (which caps it): the same checks as `dashboardUpload`.
 */
export function dashboardStreamUpload(
  handler: (input: { ctx: Ctx; actor: UserActor; request: Request }) => Promise<unknown>,
) {
  return async (request: Request, context: WorkspaceContext): Promise<Response> => {
    try {
      checkSameOrigin(request);
      const { session } = await sessionOf(context);
      // An upload is a change: refused from read-only on, as the API and the dashboard's actions refuse it.
      await checkWorkspaceWritable(session.ctx, session.workspace.id);
      return Response.json(await handler({ ctx: session.ctx, actor: session.actor, request }), {
        status: 201,
        headers: NO_STORE,
      });
    } catch (error) {
      return toErrorResponse(error, NO_STORE);
    }
  };
}

/**
 * A CSV file for the member to download, streamed as the handler produces
 * it. The checks happen before the first byte; a failure after that ends
 * the download short (the browser reports it) rather than mid-file JSON.
 */
export function dashboardCsvDownload<Q extends z.ZodType>(
  query: Q,
  handler: (input: DashboardReadInput<z.infer<Q>>) => Promise<{ fileName: string; chunks: AsyncGenerator<string> }>,
) {
  const download = async (request: Request, context: WorkspaceContext): Promise<Response> => {
    try {
      const { session, params } = await sessionOf(context);
      const input = readQuery(new URL(request.url).searchParams, query, false) as z.infer<Q>;
      const { fileName, chunks } = await handler({ ctx: session.ctx, actor: session.actor, query: input, params });
      // The first chunk is read here so that a refusal (a deleted workspace) still answers in the contract's shape.
      const first = await chunks.next();
      const encoder = new TextEncoder();
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          if (!first.done) controller.enqueue(encoder.encode(first.value));
        },
        async pull(controller) {
          try {
            const next = await chunks.next();
            if (next.done) controller.close();
            else controller.enqueue(encoder.encode(next.value));
          } catch (error) {
            logger().error({ err: error, file_name: fileName }, "dashboard download failed");
            controller.error(new Error("download failed"));
          }
        },
        async cancel() {
          await chunks.return(undefined);
        },
      });
      return new Response(body, {
        headers: {
          ...NO_STORE,
          "content-type": "text/csv; charset=utf-8",
          "content-disposition": `attachment; filename="${fileName.replace(/[^\w.-]/g, "_")}"`,
        },
      });
    } catch (error) {
      return toErrorResponse(error, NO_STORE);
    }
  };
  return Object.assign(download, { query });
}

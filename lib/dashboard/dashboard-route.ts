import "server-only";
import { z } from "zod";
import type { UserActor } from "@/lib/actor";
import { toErrorResponse } from "@/lib/api/error-response";
import { readQuery } from "@/lib/api/read-input";
import { currentUser } from "@/lib/auth/current-user";
import type { Ctx } from "@/lib/context";
import { ApiError, notFound } from "@/lib/errors";
import { readBodyCapped } from "@/lib/http/read-body-capped";
import { appUrl } from "@/lib/runtime/app-url";
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
  if (!user) throw new ApiError({ type: "authentication_error", code: "not_signed_in", message: "Sign in to the dashboard first." });
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
export function dashboardRead<Q extends z.ZodType>(query: Q, handler: (input: DashboardReadInput<z.infer<Q>>) => Promise<unknown>) {
  return async (request: Request, context: WorkspaceContext): Promise<Response> => {
    try {
      const { session, params } = await sessionOf(context);
      const input = readQuery(new URL(request.url).searchParams, query, false) as z.infer<Q>;
      return Response.json(await handler({ ctx: session.ctx, actor: session.actor, query: input, params }), { headers: NO_STORE });
    } catch (error) {
      return toErrorResponse(error, NO_STORE);
    }
  };
}

/**
 * A file sent by the dashboard (the body is the file's bytes, at most
 * `maxBytes`: 413 past it). Same session checks as a read, and the request
 * must come from the dashboard's own pages: a browser names the page's origin
 * on every POST, and another site's is refused.
 */
export function dashboardUpload(maxBytes: number, handler: (input: { ctx: Ctx; actor: UserActor; bytes: Buffer }) => Promise<unknown>) {
  return async (request: Request, context: WorkspaceContext): Promise<Response> => {
    try {
      const origin = request.headers.get("origin");
      // APP_URL's origin behind a proxy, the request's own when reached directly.
      if (!origin || (origin !== new URL(appUrl()).origin && origin !== new URL(request.url).origin)) {
        throw new ApiError({ type: "permission_error", code: "cross_site_request", message: "Upload from the dashboard's own pages." });
      }
      const { session } = await sessionOf(context);
      const bytes = Buffer.from(await readBodyCapped(request, maxBytes));
      return Response.json(await handler({ ctx: session.ctx, actor: session.actor, bytes }), { status: 201, headers: NO_STORE });
    } catch (error) {
      return toErrorResponse(error, NO_STORE);
    }
  };
}

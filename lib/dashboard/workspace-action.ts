import "server-only";

import { revalidatePath } from "next/cache";
import type { z } from "zod";

import { ApiError } from "@/lib/errors";
import { logger } from "@/lib/log/logger";
import { checkWorkspaceWritable } from "@/lib/workspaces/check-workspace-writable";

import type { ActionState } from "./action-state";
import { sentenceCase } from "./sentence-case";
import { findWorkspaceSession, type WorkspaceSession } from "./workspace-session";

/**
 * A dashboard server action: checks that the caller is a member of the
 * workspace named in the call (a crafted call naming another workspace is
 * refused like a missing one), parses the input with the same zod schema as
 * the API and the CLI, runs one lib/ function, and revalidates the
 * workspace's pages. An ApiError becomes an error next to its field; any other
 * failure is logged and answered without details.
 */
export function workspaceAction<S extends z.ZodType, R>(
  schema: S,
  run: (session: WorkspaceSession, input: z.output<S>) => Promise<R>,
  options: {
    // false: the screen refreshes itself later (a new API key must stay on screen until it is copied).
    revalidate?: boolean;
    // true: the action is how a read-only workspace gets going again (billing), so the ladder does not refuse it.
    whileInactive?: boolean;
  } = {},
) {
  const action = async (workspaceId: string, input: z.input<S>): Promise<ActionState<R>> => {
    const session = typeof workspaceId === "string" ? await findWorkspaceSession(workspaceId) : null;
    if (!session)
      return { ok: false, message: "This workspace does not exist, or you are not a member of it.", fieldErrors: {} };
    const parsed = schema.safeParse(input);
    if (!parsed.success)
      return { ok: false, message: "Check the highlighted fields.", fieldErrors: fieldErrorsOf(parsed.error) };
    try {
      if (!options.whileInactive) await checkWorkspaceWritable(session.ctx, workspaceId).catch(inDashboardWords);
      const result = await run(session, parsed.data);
      if (options.revalidate !== false) revalidatePath(`/w/${workspaceId}`, "layout");
      return { ok: true, result };
    } catch (error) {
      if (error instanceof ApiError)
        return {
          ok: false,
          message: error.message,
          fieldErrors: error.param ? { [error.param]: besideField(error.message, error.param) } : {},
        };
      logger().error(
        { err: error, workspace_id: workspaceId, user_id: session.actor.userId },
        "dashboard action failed",
      );
      return {
        ok: false,
        message: "Something went wrong on our side; nothing was changed. Try again.",
        fieldErrors: {},
      };
    }
  };
  // Its input schema rides along, as apiRoute's spec does, so a test can find every id an action takes (app/tenant-matrix.test.ts).
  return Object.assign(action, { schema });
}

/** The API's team_inactive says to sign in to the dashboard; here the sender already has. */
export function inDashboardWords(error: unknown): never {
  if (error instanceof ApiError && error.code === "team_inactive") {
    throw new ApiError({
      type: "permission_error",
      code: "team_inactive",
      message:
        "This workspace cannot act now: it is read-only because of billing. Open Billing to make it active again.",
    });
  }
  throw error;
}

function fieldErrorsOf(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const keys = issue.code === "unrecognized_keys" ? issue.keys : [""];
    for (const key of keys) {
      const path = [...issue.path, ...(key ? [key] : [])].map(String).join(".") || "form";
      errors[path] ??= key ? "Unknown field." : sentenceCase(issue.message);
    }
  }
  return errors;
}

/** The API names the field in its messages ("html: …"); next to the field that name is noise. */
function besideField(message: string, param: string): string {
  return sentenceCase(message.startsWith(`${param}: `) ? message.slice(param.length + 2) : message);
}

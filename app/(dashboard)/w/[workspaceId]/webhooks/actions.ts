"use server";

import { revalidatePath } from "next/cache";

import type { SecretState } from "@/components/webhooks/webhook-forms";
import { inDashboardWords } from "@/lib/dashboard/workspace-action";
import { findWorkspaceSession } from "@/lib/dashboard/workspace-session";
import { ApiError } from "@/lib/errors";
import { logger } from "@/lib/log/logger";
import { createEndpoint, enableEndpoint, rotateSecret } from "@/lib/webhooks/endpoints";
import { checkWorkspaceWritable } from "@/lib/workspaces/check-workspace-writable";

const notMember: SecretState = { error: "This workspace does not exist, or you are not a member of it." };

// These forms post FormData and keep their own state (a secret shown once), so they check the member
// themselves rather than through workspaceAction; the rules are the same: the workspace named in the call,
// and one that billing made read-only changes nothing.
async function asMember<T>(
  workspaceId: string,
  run: (session: NonNullable<Awaited<ReturnType<typeof findWorkspaceSession>>>) => Promise<T>,
): Promise<T | SecretState> {
  const session = await findWorkspaceSession(workspaceId);
  if (!session) return notMember;
  try {
    await checkWorkspaceWritable(session.ctx, workspaceId).catch(inDashboardWords);
    const result = await run(session);
    revalidatePath(`/w/${workspaceId}/webhooks`);
    return result;
  } catch (error) {
    if (error instanceof ApiError) return { error: error.message };
    logger().error({ err: error, workspace_id: workspaceId }, "webhook action failed");
    return { error: "Something went wrong on our side; nothing was changed." };
  }
}

export async function createEndpointAction(
  workspaceId: string,
  _previous: SecretState,
  form: FormData,
): Promise<SecretState> {
  const typed = { url: String(form.get("url") ?? ""), eventTypes: form.getAll("event").map(String) };
  const state: SecretState = await asMember(workspaceId, async ({ ctx, actor }) => {
    const { secret } = await createEndpoint(ctx, actor, typed);
    return { secret };
  });
  // Refused: what was typed comes back, so the form shows it again beside the reason.
  return state.error ? { ...state, ...typed } : state;
}

export async function rotateSecretAction(
  workspaceId: string,
  endpointId: string,
  _previous: SecretState,
): Promise<SecretState> {
  return asMember(workspaceId, async ({ ctx, actor }) => ({
    secret: (await rotateSecret(ctx, actor, endpointId)).secret,
  }));
}

export async function enableEndpointAction(workspaceId: string, endpointId: string): Promise<void> {
  await asMember(workspaceId, async ({ ctx, actor }) => {
    await enableEndpoint(ctx, actor, endpointId);
    return {};
  });
}

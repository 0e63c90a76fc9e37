"use server";

import { notFound } from "next/navigation";
import { revalidatePath } from "next/cache";
import { userActor } from "@/lib/actor";
import { requireUser } from "@/lib/auth/current-user";
import { defaultCtx } from "@/lib/context";
import { ApiError } from "@/lib/errors";
import { createEndpoint, enableEndpoint, rotateSecret } from "@/lib/webhooks/endpoints";
import { requireMembership } from "@/lib/workspaces/require-membership";

/** What a form shows after submitting: the new secret once, or why nothing changed. */
export interface SecretState {
  secret?: string;
  error?: string;
}

async function member(workspaceId: string) {
  const user = await requireUser();
  const ctx = defaultCtx();
  await requireMembership(ctx, user.id, workspaceId, notFound);
  return { ctx, actor: userActor(user.id, workspaceId) };
}

export async function createEndpointAction(workspaceId: string, _previous: SecretState, form: FormData): Promise<SecretState> {
  const { ctx, actor } = await member(workspaceId);
  try {
    const { secret } = await createEndpoint(ctx, actor, { url: String(form.get("url") ?? ""), eventTypes: form.getAll("event").map(String) });
    revalidatePath(`/w/${workspaceId}/webhooks`);
    return { secret };
  } catch (error) {
    if (error instanceof ApiError) return { error: error.message };
    throw error;
  }
}

export async function rotateSecretAction(workspaceId: string, endpointId: string, _previous: SecretState): Promise<SecretState> {
  const { ctx, actor } = await member(workspaceId);
  const { secret } = await rotateSecret(ctx, actor, endpointId);
  revalidatePath(`/w/${workspaceId}/webhooks`);
  return { secret };
}

export async function enableEndpointAction(workspaceId: string, endpointId: string): Promise<void> {
  const { ctx, actor } = await member(workspaceId);
  await enableEndpoint(ctx, actor, endpointId);
  revalidatePath(`/w/${workspaceId}/webhooks`);
}

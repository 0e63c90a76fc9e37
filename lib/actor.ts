import { eq, type Column, type SQL } from "drizzle-orm";

import { ApiError } from "@/lib/errors";

/**
 * Who is acting, given to every tenant function. An API key and a signed-in
 * member act inside one workspace; the system (admin CLI, workflows) is the
 * only actor that may reach across workspaces, and it says so by having no
 * workspace and a reason.
 */
export type Actor = ApiKeyActor | UserActor | SystemActor;

export interface ApiKeyActor {
  kind: "api_key";
  workspaceId: string;
  keyId: string;
  /** A brand-locked key sees that brand's topics, lists and campaigns only. */
  brandId: string | null;
  /** Test keys write the audience but mail nothing and record no event. */
  mode: "live" | "test";
}

export interface UserActor {
  kind: "user";
  workspaceId: string;
  userId: string;
  /** Set only to read one brand's reports, with the scope of a key locked to that brand (viewingBrand). */
  brandId: string | null;
  mode: "live";
}

export interface SystemActor {
  kind: "system";
  /** Null: every workspace (an operator's command naming an object by id). */
  workspaceId: string | null;
  brandId: null;
  mode: "live";
  reason: string;
}

/** An actor bound to one workspace: what the /v1 pipeline and the dashboard always have. */
export type WorkspaceActor = Actor & { workspaceId: string };

export function apiKeyActor(key: {
  keyId: string;
  workspaceId: string;
  brandId: string | null;
  mode: "live" | "test";
}): ApiKeyActor {
  return { kind: "api_key", ...key };
}

export function userActor(userId: string, workspaceId: string): UserActor {
  return { kind: "user", userId, workspaceId, brandId: null, mode: "live" };
}

/** A member reading one brand's figures: what a key locked to that brand would see. */
export function viewingBrand(actor: UserActor, brandId: string): UserActor {
  return { ...actor, brandId };
}

/**
 * The operator, a workflow, or the service applying what a recipient or a provider did (a
 * confirmation, a click, a bounce). Without a workspace it reaches every workspace: pass one
 * whenever it is known.
 */
export function systemActor(reason: string, workspaceId: string): SystemActor & WorkspaceActor;
export function systemActor(reason: string, workspaceId?: string | null): SystemActor;
export function systemActor(reason: string, workspaceId: string | null = null): SystemActor {
  return { kind: "system", workspaceId, brandId: null, mode: "live", reason };
}

/**
 * The condition that keeps a query inside the actor's workspace; undefined
 * (no condition) only for a system actor acting across workspaces.
 */
export function inActorWorkspace(actor: Actor, column: Column): SQL | undefined {
  return actor.workspaceId === null ? undefined : eq(column, actor.workspaceId);
}

/**
 * The one workspace the actor acts in. Whatever creates or counts something
 * needs one: a system actor reaching across workspaces is refused rather than
 * guessed at, since nothing names the workspace the row would belong to.
 */
export function requireActorWorkspace(actor: Actor): string {
  if (actor.kind !== "system") return actor.workspaceId;
  if (actor.workspaceId !== null) return actor.workspaceId;
  throw new ApiError({
    type: "invalid_request_error",
    code: "workspace_required",
    param: "workspace",
    message: `This needs a workspace; the ${actor.reason} actor acts across workspaces.`,
  });
}

/** Who did something, as kept with what they did (a suppression lifted, an opt-out made for someone): a member, a key or the system. */
export function actorLabel(actor: Actor): string {
  if (actor.kind === "user") return `user:${actor.userId}`;
  if (actor.kind === "api_key") return `key:${actor.keyId}`;
  return `system:${actor.reason}`;
}

/** A kept label in words, given the member's address when it names a member who is still a user. */
export function actorLabelText(label: string, memberEmail: string | null): string {
  if (memberEmail) return memberEmail;
  if (label.startsWith("key:")) return `API key ${label.slice(4)}`;
  if (label.startsWith("system:")) return "An operator";
  return "A former member";
}

import { and, eq } from "drizzle-orm";

import { systemActor } from "@/lib/actor";
import type { CreateApiKeyInput } from "@/lib/api-keys/api-key-schemas";
import { createApiKey } from "@/lib/api-keys/create-api-key";
import { createBrand } from "@/lib/brands/create-brand";
import type { Ctx } from "@/lib/context";
import { contacts, subscriptions, workspaceBilling, type BillingStage } from "@/lib/db/schema";
import { createTopic } from "@/lib/topics/create-topic";
import { createWorkspace } from "@/lib/workspaces/create-workspace";

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

/** A workspace with one brand, as a test's own tenant. */
export async function seedWorkspace(ctx: Ctx, opts: { ownerEmail?: string } = {}) {
  const tag = unique();
  const { workspaceId, ownerUserId } = await createWorkspace(ctx, {
    name: `Workspace ${tag}`,
    ownerEmail: opts.ownerEmail ?? `owner-${tag}@example.com`,
  });
  const { brandId } = await createBrand(ctx, systemActor("test", workspaceId), {
    name: `Brand ${tag}`,
    legalName: `Brand ${tag} Ltd`,
    postalAddress: "1 Main Street, Springfield",
    websiteUrl: "https://brand.example.com",
    senderEmail: `news-${tag}@brand.example.com`,
  });
  return { workspaceId, ownerUserId, brandId };
}

export async function seedTopic(
  ctx: Ctx,
  workspaceId: string,
  brandId: string,
  opts: { requiresConfirmation?: boolean } = {},
) {
  const { topicId } = await createTopic(ctx, systemActor("test", workspaceId), {
    brandId,
    name: `Topic ${unique()}`,
    requiresConfirmation: opts.requiresConfirmation ?? true,
  });
  return topicId;
}

export async function seedKey(ctx: Ctx, workspaceId: string, opts: Partial<CreateApiKeyInput> = {}) {
  return createApiKey(ctx, systemActor("test", workspaceId), { kind: "secret", environment: "live", ...opts });
}

/** Until the consent pages exist, an opt-out is written directly: subscription unsubscribed, or everything. */
export async function optOut(ctx: Ctx, contactId: string, topicId: string | "all") {
  const now = ctx.clock.now();
  if (topicId === "all") {
    await ctx.db.update(contacts).set({ optedOutAt: now }).where(eq(contacts.id, contactId));
    return;
  }
  await ctx.db
    .update(subscriptions)
    .set({ state: "unsubscribed", unsubscribedAt: now })
    .where(and(eq(subscriptions.contactId, contactId), eq(subscriptions.topicId, topicId)));
}

export async function setBillingStage(ctx: Ctx, workspaceId: string, stage: BillingStage) {
  await ctx.db.update(workspaceBilling).set({ stage }).where(eq(workspaceBilling.workspaceId, workspaceId));
}

/** A paid plan's allowance for tests about large audiences (a trial covers 1,000 sends). */
export async function setSendAllowance(ctx: Ctx, workspaceId: string, sendAllowance: number) {
  await ctx.db
    .update(workspaceBilling)
    .set({ stage: "active", sendAllowance })
    .where(eq(workspaceBilling.workspaceId, workspaceId));
}

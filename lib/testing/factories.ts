import type { Ctx } from "@/lib/context";
import { createApiKey } from "@/lib/api-keys/create-api-key";
import { createBrand } from "@/lib/brands/create-brand";
import { createTopic } from "@/lib/topics/create-topic";
import { createWorkspace } from "@/lib/workspaces/create-workspace";

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

/** A workspace with one brand, as a test's own tenant. */
export async function seedWorkspace(ctx: Ctx, opts: { ownerEmail?: string } = {}) {
  const tag = unique();
  const { workspaceId, ownerUserId } = await createWorkspace(ctx, { name: `Workspace ${tag}`, ownerEmail: opts.ownerEmail ?? `owner-${tag}@example.com` });
  const { brandId } = await createBrand(ctx, {
    workspaceId,
    name: `Brand ${tag}`,
    legalName: `Brand ${tag} Ltd`,
    postalAddress: "1 Main Street, Springfield",
    websiteUrl: "https://brand.example.com",
    senderEmail: `news-${tag}@brand.example.com`,
  });
  return { workspaceId, ownerUserId, brandId };
}

export async function seedTopic(ctx: Ctx, workspaceId: string, brandId: string, opts: { requiresConfirmation?: boolean } = {}) {
  const { topicId } = await createTopic(ctx, { workspaceId, brandId, name: `Topic ${unique()}`, requiresConfirmation: opts.requiresConfirmation ?? true });
  return topicId;
}

export async function seedKey(ctx: Ctx, workspaceId: string, opts: Partial<Parameters<typeof createApiKey>[1]> = {}) {
  return createApiKey(ctx, { workspaceId, kind: "secret", environment: "live", ...opts });
}

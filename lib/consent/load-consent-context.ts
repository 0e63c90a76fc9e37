import "server-only";

import { and, eq } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { brands, contacts, topics } from "@/lib/db/schema";

export type BrandRow = typeof brands.$inferSelect;
export type TopicRow = typeof topics.$inferSelect;
export type ContactRow = typeof contacts.$inferSelect;

/** The contact, topic and the topic's brand a link names; null when any is gone (or they do not belong together). */
export async function loadContactTopic(ctx: Ctx, contactId: string, topicId: string) {
  const [row] = await ctx.db
    .select({ contact: contacts, topic: topics, brand: brands })
    .from(contacts)
    .innerJoin(topics, and(eq(topics.id, topicId), eq(topics.workspaceId, contacts.workspaceId)))
    .innerJoin(brands, eq(brands.id, topics.brandId))
    .where(eq(contacts.id, contactId));
  return row ?? null;
}

export async function loadContactBrand(ctx: Ctx, contactId: string, brandId: string) {
  const [row] = await ctx.db
    .select({ contact: contacts, brand: brands })
    .from(contacts)
    .innerJoin(brands, and(eq(brands.id, brandId), eq(brands.workspaceId, contacts.workspaceId)))
    .where(eq(contacts.id, contactId));
  return row ?? null;
}

import "server-only";

import { eq } from "drizzle-orm";

import type { WorkspaceActor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { rawClient } from "@/lib/db/client";
import { attributeDefinitions } from "@/lib/db/schema";

export interface AttributeDefinitionView {
  key: string;
  type: "string" | "number" | "boolean" | "date";
  createdAt: Date;
  /** Campaigns whose subject or body use `{{contact.<key>}}`. */
  usedBy: { id: string; name: string }[];
}

/**
 * The workspace's custom attributes, each with the campaigns that use it as a
 * merge tag. The bodies are searched in PostgreSQL, so no campaign body is
 * loaded into the app. Keys are [a-z0-9_], safe inside the pattern.
 */
export async function listAttributeDefinitions(ctx: Ctx, actor: WorkspaceActor): Promise<AttributeDefinitionView[]> {
  const rows = await rawClient(ctx.db)<
    { key: string; type: AttributeDefinitionView["type"]; createdAt: Date; usedBy: { id: string; name: string }[] }[]
  >`
    select d.key, d.type, d.created_at as "createdAt",
           coalesce((select json_agg(json_build_object('id', c.id, 'name', c.name) order by c.id desc)
                     from campaigns c
                     where c.workspace_id = d.workspace_id
                       and (c.subject || ' ' || c.html || ' ' || coalesce(c.text, '')) ~ ('\\{\\{\\s*contact\\.' || d.key || '\\s*\\}\\}')), '[]'::json) as "usedBy"
    from attribute_definitions d
    where d.workspace_id = ${actor.workspaceId}
    order by d.key`;
  return rows;
}

/** The workspace's custom attributes and their types only, for the contact forms. */
export async function listAttributeTypes(
  ctx: Ctx,
  actor: WorkspaceActor,
): Promise<Pick<AttributeDefinitionView, "key" | "type">[]> {
  return ctx.db
    .select({ key: attributeDefinitions.key, type: attributeDefinitions.type })
    .from(attributeDefinitions)
    .where(eq(attributeDefinitions.workspaceId, actor.workspaceId))
    .orderBy(attributeDefinitions.key);
}

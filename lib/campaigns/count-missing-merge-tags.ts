import "server-only";

import { and, eq, sql, type SQL } from "drizzle-orm";

import type { WorkspaceActor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { attributeDefinitions, brands, lists, topics } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";
import { notSuppressedSql } from "@/lib/suppressions/suppressed";

import { mergeValuesFor } from "./render-campaign-mail";

export interface MergeTagGaps {
  /** The campaign's audience now: the topic's subscribers (on the list, when there is one), less the suppressed. */
  audience: number;
  /** For each merge tag asked about that exists, how many of them have no value for it: dispatch skips them. */
  tags: { tag: string; missing: number }[];
}

/**
 * A campaign being written may not be saved yet, so it is asked about by its
 * brand, topic, list and the tags it uses. There are no default values: a
 * recipient without a value for a tag the campaign uses is skipped, so each
 * tag is counted on its own (one person may lack several). `contact.email`
 * is never missing; a tag that does not exist is left out (saving refuses it
 * next to its field). Counted in one pass over the audience, as the snapshot
 * finds it.
 */
export async function countMissingMergeTags(
  ctx: Ctx,
  actor: WorkspaceActor,
  input: { brandId: string; topicId: string; listId?: string | null; tags: string[] },
): Promise<MergeTagGaps> {
  const { workspaceId } = actor;
  const [brand] = await ctx.db
    .select()
    .from(brands)
    .where(and(eq(brands.id, input.brandId), eq(brands.workspaceId, workspaceId)));
  if (!brand) throw notFound("brand_not_found", `No brand ${input.brandId}.`, "brandId");
  const [topic] = await ctx.db
    .select({ id: topics.id })
    .from(topics)
    .where(and(eq(topics.id, input.topicId), eq(topics.workspaceId, workspaceId)));
  if (!topic) throw notFound("topic_not_found", `No topic ${input.topicId}.`, "topicId");
  if (input.listId) {
    const [list] = await ctx.db
      .select({ id: lists.id })
      .from(lists)
      .where(and(eq(lists.id, input.listId), eq(lists.workspaceId, workspaceId)));
    if (!list) throw notFound("list_not_found", `No list ${input.listId}.`, "listId");
  }
  const attributes = new Set(
    (
      await ctx.db
        .select({ key: attributeDefinitions.key })
        .from(attributeDefinitions)
        .where(eq(attributeDefinitions.workspaceId, workspaceId))
    ).map((row) => row.key),
  );
  const brandValue = mergeValuesFor({ id: "", email: "", firstName: null, lastName: null, attributes: {} }, brand);

  // Each tag as the condition "has no value", rendered the way dispatch reads the value.
  const rules: { tag: string; lacks: SQL }[] = [];
  for (const tag of [...new Set(input.tags)]) {
    const [namespace, name, ...rest] = tag.split(".");
    if (rest.length > 0 || !name) continue;
    if (namespace === "brand" && ["name", "legal_name", "postal_address", "website_url"].includes(name))
      rules.push({ tag, lacks: brandValue(tag) ? sql`false` : sql`true` });
    if (namespace !== "contact" || name === "email") continue;
    if (name === "first_name") rules.push({ tag, lacks: sql`coalesce(c.first_name, '') = ''` });
    else if (name === "last_name") rules.push({ tag, lacks: sql`coalesce(c.last_name, '') = ''` });
    // As rendering reads an attribute: absent or an empty string is no value; any other JSON value prints.
    else if (attributes.has(name))
      rules.push({ tag, lacks: sql`(not (c.attributes ? ${name}) or c.attributes -> ${name} = '""'::jsonb)` });
  }
  const counts = rules.length
    ? sql`array[${sql.join(
        rules.map((rule) => sql`count(*) filter (where ${rule.lacks})`),
        sql`, `,
      )}]::int[]`
    : sql`array[]::int[]`;
  const [row] = await ctx.db.execute<{ audience: number; missing: number[] }>(sql`
    select count(*)::int as audience, ${counts} as missing
    from subscriptions s
    join contacts c on c.id = s.contact_id
    where s.topic_id = ${topic.id} and s.state = 'subscribed' and c.opted_out_at is null
      ${input.listId ? sql`and exists (select 1 from list_members m where m.list_id = ${input.listId} and m.contact_id = c.id)` : sql``}
      and ${notSuppressedSql(workspaceId, sql`c.email`)}`);
  return {
    audience: Number(row?.audience ?? 0),
    tags: rules.map((rule, index) => ({ tag: rule.tag, missing: Number(row?.missing[index] ?? 0) })),
  };
}

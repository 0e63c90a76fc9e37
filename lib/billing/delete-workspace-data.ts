import "server-only";

import { and, eq, inArray, sql, type SQL } from "drizzle-orm";

import { withTransaction, type Ctx } from "@/lib/context";
import { images } from "@/lib/db/schema";
import { s3Bucket } from "@/lib/images/s3-bucket";

/** Rows per statement: small enough that each chunk is a short transaction, whatever the workspace's size. */
export const DELETION_CHUNK_ROWS = 5000;

/**
 * What a deleted workspace loses, in an order the foreign keys accept: the audience (contacts with
 * their subscriptions, list memberships and opt-outs made for them, suppressions, events), the content (campaigns with their
 * sends, templates, images, forms, imports), the reports, and the means of sending (webhooks, brands,
 * domains, the pace at each mailbox provider). Kept: the workspace row, its members, its billing row, invoices and the ladder's notices,
 * so the empty shell still shows its payment history, and its workspace-wide API keys, which answer
 * `team_inactive` rather than pretending the workspace never existed.
 */
const PARTS: { name: string; chunk: (workspaceId: string, limit: number) => SQL }[] = [
  byWorkspace("webhook_deliveries"),
  byWorkspace("events"),
  {
    // Sends carry no workspace index (see the sends schema): reach them through each campaign's key range.
    name: "sends",
    chunk: (workspaceId, limit) => sql`
      delete from sends where id in (
        select s.id from campaigns c
        cross join lateral (
          select id from sends
          where case when c.send_id_prefix is not null then sends.id >= c.send_id_prefix and sends.id < c.send_id_prefix || '~'
                     else sends.campaign_id = c.id end
          limit ${limit}) s
        where c.workspace_id = ${workspaceId}
        limit ${limit})`,
  },
  // An automation's entries and sends are reached through its automations (their indexes lead with the automation).
  throughAutomations("automation_sends"),
  throughAutomations("automation_entries"),
  byWorkspace("automation_versions"),
  byWorkspace("automations"),
  byWorkspace("mail_messages"),
  byWorkspace("confirmation_requests"),
  byWorkspace("list_members"),
  byWorkspace("opt_outs_on_behalf"),
  byWorkspace("subscriptions"),
  byWorkspace("report_contact_statuses"),
  {
    // No workspace index of its own (see the contact_engagement schema): reached through the contacts, before they go.
    name: "contact_engagement",
    chunk: (workspaceId, limit) => sql`
      delete from contact_engagement where contact_id in (
        select e.contact_id from contacts c join contact_engagement e on e.contact_id = c.id
        where c.workspace_id = ${workspaceId} limit ${limit})`,
  },
  byWorkspace("contacts"),
  byWorkspace("erased_contacts"),
  byWorkspace("contact_bulk_actions"),
  byWorkspace("suppression_lifts"),
  byWorkspace("suppressions"),
  byWorkspace("provider_events"),
  byWorkspace("report_engagement_queue"),
  byWorkspace("report_contact_count_queue"),
  byWorkspace("report_activity"),
  byWorkspace("signup_form_submissions"),
  byWorkspace("signup_forms"),
  {
    // Import rows carry no workspace (nor a key to their import): reach them through its imports.
    name: "import_rows",
    chunk: (workspaceId, limit) => sql`
      delete from import_rows where ctid in (
        select r.ctid from imports i join import_rows r on r.import_id = i.id where i.workspace_id = ${workspaceId} limit ${limit})`,
  },
  byWorkspace("imports"),
  byWorkspace("campaign_guardrails"),
  byWorkspace("campaigns"),
  byWorkspace("segments"),
  byWorkspace("lists"),
  byWorkspace("topics"),
  byWorkspace("templates"),
  byWorkspace("images"),
  byWorkspace("attribute_definitions"),
  byWorkspace("webhook_endpoints"),
  byWorkspace("verified_addresses"),
  byWorkspace("sending_domains"),
  byWorkspace("provider_paces"),
  byWorkspace("report_brand_counters"),
  byWorkspace("brands"),
  byWorkspace("report_workspace_counters"),
  byWorkspace("deliverability_settings"),
];

function throughAutomations(table: "automation_sends" | "automation_entries") {
  return {
    name: table,
    chunk: (workspaceId: string, limit: number) => sql`
      delete from ${sql.identifier(table)} where ctid in (
        select r.ctid from automations a join ${sql.identifier(table)} r on r.automation_id = a.id
        where a.workspace_id = ${workspaceId} limit ${limit})`,
  };
}

function byWorkspace(table: string) {
  return {
    name: table,
    chunk: (workspaceId: string, limit: number) =>
      sql`delete from ${sql.identifier(table)} where ctid in (select ctid from ${sql.identifier(table)} where workspace_id = ${workspaceId} limit ${limit})`,
  };
}

/**
 * Images kept in the bucket: their objects first, then their rows. Outside any transaction, since
 * each object is a call to the bucket; deleting a missing object succeeds, so a chunk repeated after
 * a crash between the two deletes nothing twice.
 */
async function deleteImageObjects(ctx: Ctx, workspaceId: string, limit: number): Promise<number> {
  const rows = await ctx.db
    .select({ id: images.id, key: images.storageKey })
    .from(images)
    .where(and(eq(images.workspaceId, workspaceId), eq(images.storage, "s3")))
    .limit(Math.min(limit, 100));
  if (rows.length === 0) return 0;
  const bucket = s3Bucket();
  if (!bucket) throw new Error(`workspace ${workspaceId} has images in an S3 bucket, but S3_BUCKET is not configured`);
  for (const row of rows) await bucket.delete(row.key!);
  await ctx.db.delete(images).where(
    inArray(
      images.id,
      rows.map((row) => row.id),
    ),
  );
  return rows.length;
}

/**
 * Deletes the next chunk of a deleted workspace's data: what the first part with rows left still
 * holds, up to DELETION_CHUNK_ROWS. Null once nothing is left. Each call is its own transaction and
 * repeating one after a crash deletes nothing twice, so the ladder calls it step after step.
 * System: the billing ladder's deletion, through deleteSomeData; no person's request reaches it.
 */
export async function deleteNextChunk(
  ctx: Ctx,
  workspaceId: string,
  limit = DELETION_CHUNK_ROWS,
): Promise<{ part: string; deleted: number } | null> {
  const objects = await deleteImageObjects(ctx, workspaceId, limit);
  if (objects > 0) return { part: "image_objects", deleted: objects };
  return withTransaction(ctx, async (tx) => {
    for (const part of PARTS) {
      const result = await tx.db.execute(part.chunk(workspaceId, limit));
      if (result.count > 0) return { part: part.name, deleted: result.count };
    }
    return null;
  });
}

/**
 * Up to `chunks` chunks in a row, each its own transaction: the rows deleted, 0 once nothing is left. Fewer workflow steps for a large workspace.
 * System: a step of the billing-ladder workflow; no person's request reaches it.
 */
export async function deleteSomeData(ctx: Ctx, workspaceId: string, chunks = 20): Promise<number> {
  let deleted = 0;
  for (let n = 0; n < chunks; n++) {
    const chunk = await deleteNextChunk(ctx, workspaceId);
    if (!chunk) break;
    deleted += chunk.deleted;
  }
  return deleted;
}

import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { upsertContact } from "@/lib/contacts/upsert-contact";
import { createList } from "@/lib/lists/create-list";
import { foldContactCounts } from "@/lib/reports/fold-contact-counts";
import { optOut, seedTopic } from "@/lib/testing/factories";
import { importTestFixture } from "@/lib/testing/import-fixture";

const { ctx, workspace, importCsv } = importTestFixture();

/** A workspace's contact figures: its status buckets, each contact's kept status, and contacts_added in the activity series. */
async function figures(workspaceId: string) {
  await foldContactCounts(ctx, workspaceId); // readers fold the queued new-contact counts first
  const read = async (query: ReturnType<typeof sql>) => (await ctx.db.execute(query)).map((row) => ({ ...row }));
  return {
    buckets: await read(
      sql`select contacts_total, contacts_unsubscribed, contacts_bounced, contacts_complained from report_workspace_counters where workspace_id = ${workspaceId}`,
    ),
    statuses: await read(sql`
      select c.email, r.status from contacts c join report_contact_statuses r on r.contact_id = c.id
      where c.workspace_id = ${workspaceId} order by c.email`),
    added: await read(
      sql`select grain, bucket_at::text, contacts_added from report_activity where workspace_id = ${workspaceId} and brand_id = '' and contacts_added <> 0 order by 1, 2`,
    ),
  };
}

describe("CSV import: report counters", () => {
  it("the bulk path counts new contacts as the insert trigger does: the same statuses, buckets and activity as the same rows written through the trigger, and as a rebuild from the raw rows", async () => {
    const w = await workspace();
    const other = await seedTopic(ctx, w.workspaceId, w.brandId, { requiresConfirmation: false });
    const { listId } = await createList(ctx, w.actor, { name: "Imported", brandId: w.brandId });
    // Before the import: a contact who left another topic and one who opted out of everything (both
    // refused), one already subscribed, and one whose subscription is pending (the import subscribes them).
    const { contact: left } = await upsertContact(ctx, w.actor, { email: "left@example.com", topicIds: [other] });
    await optOut(ctx, left.id, other);
    const { contact: gone } = await upsertContact(ctx, w.actor, { email: "gone@example.com" });
    await optOut(ctx, gone.id, "all");
    await upsertContact(ctx, w.actor, { email: "kept@example.com", topicIds: [w.topicId] });
    const { contact: pending } = await upsertContact(ctx, w.actor, { email: "pending@example.com" });
    await ctx.db.execute(sql`
      insert into subscriptions (id, workspace_id, contact_id, topic_id, state)
      values ('sub_pending_import', ${w.workspaceId}, ${pending.id}, ${w.topicId}, 'pending')`);
    const fresh = Array.from({ length: 7 }, (_, i) => `fresh${i}@example.com,Name${i}`);
    const { applied } = await importCsv(
      w,
      `email,first\nleft@example.com,Lou\ngone@example.com,Gus\nkept@example.com,Kim\npending@example.com,Pat\n${fresh.join("\n")}\n`,
      { topicIds: [w.topicId], consentAsserted: true, listId },
    );
    expect(applied).toMatchObject({ created: 7, refused: { unsubscribed: 2 }, subscribed: 8 });
    const imported = await figures(w.workspaceId);
    expect(imported.buckets).toEqual([
      { contacts_total: "11", contacts_unsubscribed: "2", contacts_bounced: "0", contacts_complained: "0" },
    ]);

    // The same contacts and subscriptions written again, into another workspace, through the triggers.
    const copy = await workspace();
    await ctx.db.execute(sql`
      insert into contacts (id, workspace_id, email, first_name, opted_out_at, created_at, updated_at)
      select 'ct_copy' || substr(id, 3), ${copy.workspaceId}, email, first_name, opted_out_at, created_at, updated_at
      from contacts where workspace_id = ${w.workspaceId}`);
    await ctx.db.execute(sql`
      insert into subscriptions (id, workspace_id, contact_id, topic_id, state, created_at, updated_at)
      select 'sub_copy' || substr(id, 4), ${copy.workspaceId}, 'ct_copy' || substr(contact_id, 3), topic_id, state, created_at, updated_at
      from subscriptions where workspace_id = ${w.workspaceId}`);
    expect(await figures(copy.workspaceId)).toEqual(imported);

    await ctx.db.execute(sql`select report_rebuild(${w.workspaceId})`);
    expect(await figures(w.workspaceId)).toEqual(imported);
  });
});

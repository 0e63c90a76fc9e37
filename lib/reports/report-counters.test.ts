import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { apiKeyActor, systemActor } from "@/lib/actor";
import { campaignCounts } from "@/lib/campaigns/campaign-counts";
import { unsubscribe } from "@/lib/consent/unsubscribe";
import { DERIVED_CONTACT_STATUS_SQL } from "@/lib/contacts/contact-status";
import { countContacts } from "@/lib/contacts/count-contacts";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { withTransaction } from "@/lib/context";
import { recordProviderEvent } from "@/lib/deliverability/record-provider-event";
import { createList } from "@/lib/lists/create-list";
import { addListMembers, removeListMembers } from "@/lib/lists/list-membership";
import { createSuppression } from "@/lib/suppressions/create-suppression";
import { deleteSuppression } from "@/lib/suppressions/delete-suppression";
import { callApi } from "@/lib/testing/api-client";
import { optOut, seedKey, seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { seedSentCampaign } from "@/lib/testing/report-fixture";
import { testCtx } from "@/lib/testing/test-context";
import { archiveTopic } from "@/lib/topics/archive-topic";
import { recordClick, recordOpen } from "@/lib/tracking/record-engagement";

import { foldAllContactCounts, foldContactCounts } from "./fold-contact-counts";
import { foldEngagement } from "./fold-engagement";
import { getActivity } from "./get-activity";
import { getSummary } from "./get-summary";
import { readReportVersions } from "./report-versions";

const { ctx, clock } = testCtx();

/** Every maintained figure of a workspace, to compare with a rebuild from the raw rows. */
async function snapshot(workspaceId: string) {
  await foldContactCounts(ctx, workspaceId); // readers fold the queued new-contact counts first
  const read = async (query: ReturnType<typeof sql>) => (await ctx.db.execute(query)).map((row) => ({ ...row }));
  return {
    workspace: await read(
      sql`select contacts_total, contacts_unsubscribed, contacts_bounced, contacts_complained from report_workspace_counters where workspace_id = ${workspaceId}`,
    ),
    brands: await read(
      sql`select brand_id, lists_total, list_memberships, topics_total, campaigns_total, campaigns_draft, campaigns_scheduled, campaigns_sending, campaigns_paused, campaigns_sent, campaigns_cancelled from report_brand_counters where workspace_id = ${workspaceId} order by brand_id`,
    ),
    campaigns: await read(
      sql`select campaign_id, recipients, queued, accepted, failed, skipped, cancelled, delivered, bounced, complained, opened, clicked, unsubscribed from report_campaign_counters where workspace_id = ${workspaceId} order by campaign_id`,
    ),
    activity: await read(
      sql`select grain, bucket_at::text, brand_id, contacts_added, unsubscribes, campaigns_sent, opens, clicks from report_activity where workspace_id = ${workspaceId} and (contacts_added, unsubscribes, campaigns_sent, opens, clicks) <> (0, 0, 0, 0, 0) order by 1, 2, 3`,
    ),
  };
}

describe("report counters maintained as changes happen", () => {
  it("after mixed audience, campaign and engagement writes the counters equal a rebuild from the raw rows", async () => {
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
    const other = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
    const { listId } = await createList(ctx, systemActor("test", workspaceId), { brandId, name: "VIP" });
    const actor = apiKeyActor({ keyId: "key_test", workspaceId, brandId: null, mode: "test" });
    const { campaignId, sendIds, contactIds } = await seedSentCampaign(ctx, {
      workspaceId,
      brandId,
      topicId,
      emails: ["a@example.com", "b@example.com", "c@example.com", "d@example.com"],
    });
    await addListMembers(ctx, actor, listId, Object.values(contactIds));
    await removeListMembers(ctx, actor, listId, [contactIds["d@example.com"]!]);
    await upsertContact(ctx, actor, { email: "e@example.com", topicIds: [other] });
    clock.advance(60_000);
    await recordProviderEvent(ctx, { type: "delivered", sendId: sendIds["a@example.com"], occurredAt: clock.now() });
    await recordProviderEvent(ctx, {
      type: "bounced",
      bounceType: "permanent",
      sendId: sendIds["b@example.com"],
      occurredAt: clock.now(),
    });
    await recordProviderEvent(ctx, { type: "complained", sendId: sendIds["c@example.com"], occurredAt: clock.now() });
    await recordOpen(ctx, sendIds["a@example.com"]!, { country: null });
    await recordOpen(ctx, sendIds["a@example.com"]!, { country: null });
    await recordClick(ctx, sendIds["a@example.com"]!, {
      url: "https://x.test",
      country: null,
      deviceType: null,
      client: null,
    });
    await unsubscribe(ctx, {
      contactId: contactIds["d@example.com"]!,
      scope: "topic",
      topicId,
      campaignId,
      sendId: sendIds["d@example.com"],
    });
    await optOut(ctx, contactIds["a@example.com"]!, "all");
    const { suppression } = await createSuppression(ctx, actor, { email: "e@example.com" });
    await deleteSuppression(ctx, actor, suppression.id);
    await archiveTopic(ctx, actor, other);
    await foldEngagement(ctx);

    const maintained = await snapshot(workspaceId);
    // The rebuild recounts unsubscribes from events; the fixture's direct opt-out recorded none.
    await ctx.db.execute(sql`select report_rebuild(${workspaceId})`);
    const rebuilt = await snapshot(workspaceId);
    expect(maintained.workspace).toEqual(rebuilt.workspace);
    expect(maintained.brands).toEqual(rebuilt.brands);
    expect(maintained.campaigns).toEqual(rebuilt.campaigns);
    expect(maintained.activity).toEqual(rebuilt.activity);
    expect(maintained.campaigns[0]).toMatchObject({
      recipients: "4",
      accepted: "4",
      delivered: "1",
      bounced: "1",
      complained: "1",
      opened: "1",
      clicked: "1",
      unsubscribed: "1",
    });
  });

  it("a send written already delivered, opened or clicked is counted at the fold as one that became so", async () => {
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
    const { campaignId, sendIds } = await seedSentCampaign(ctx, {
      workspaceId,
      brandId,
      topicId,
      emails: ["a@example.com", "b@example.com"],
    });
    await ctx.db.execute(sql`
      insert into sends (id, workspace_id, campaign_id, contact_id, email, state, accepted_at, delivered_at, opened_at, clicked_at)
      select 'snd_engaged' || s.id, s.workspace_id, s.campaign_id, s.contact_id, s.email, 'accepted', now(), now(), now(), now()
      from sends s where s.id = ${sendIds["a@example.com"]!}`);
    await ctx.db.execute(sql`
      insert into sends (id, workspace_id, campaign_id, contact_id, email, state, accepted_at, opened_at)
      select 'snd_opened' || s.id, s.workspace_id, s.campaign_id, s.contact_id, s.email, 'accepted', now(), now()
      from sends s where s.id = ${sendIds["b@example.com"]!}`);
    await ctx.db.execute(sql`
      insert into sends (id, workspace_id, campaign_id, contact_id, email, state, accepted_at, delivered_at)
      select 'snd_delivered' || s.id, s.workspace_id, s.campaign_id, s.contact_id, s.email, 'accepted', now(), now()
      from sends s where s.id = ${sendIds["b@example.com"]!}`);
    // Clicked with its images blocked: no open.
    await ctx.db.execute(sql`
      insert into sends (id, workspace_id, campaign_id, contact_id, email, state, accepted_at, clicked_at)
      select 'snd_clicked' || s.id, s.workspace_id, s.campaign_id, s.contact_id, s.email, 'accepted', now(), now()
      from sends s where s.id = ${sendIds["b@example.com"]!}`);
    await foldEngagement(ctx);

    const maintained = await snapshot(workspaceId);
    await ctx.db.execute(sql`select report_rebuild(${workspaceId})`);
    expect(maintained).toEqual(await snapshot(workspaceId));
    expect(maintained.campaigns.find((c) => c.campaign_id === campaignId)).toMatchObject({
      recipients: "6",
      delivered: "2",
      opened: "2",
      clicked: "2",
    });
  });

  it("each contact's maintained status is the one derived_contact_statuses derives", async () => {
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
    const actor = systemActor("test", workspaceId);
    const ids: string[] = [];
    for (const email of ["s@example.com", "u@example.com", "b@example.com", "c@example.com", "t@example.com"]) {
      ids.push((await upsertContact(ctx, actor, { email, topicIds: [topicId] })).contact.id);
    }
    await optOut(ctx, ids[1]!, "all");
    await createSuppression(ctx, actor, { email: "b@example.com" }, "bounce");
    await createSuppression(ctx, actor, { email: "c@example.com" }, "complaint");
    await optOut(ctx, ids[4]!, topicId);
    const rows = await ctx.db.execute<{ derived: string; kept: string }>(
      sql`select ${sql.raw(DERIVED_CONTACT_STATUS_SQL)} as derived, r.status as kept from contacts join report_contact_statuses r on r.contact_id = contacts.id where contacts.workspace_id = ${workspaceId}`,
    );
    expect(rows.map((r) => r.kept).sort()).toEqual([
      "bounced",
      "complained",
      "subscribed",
      "unsubscribed",
      "unsubscribed",
    ]);
    for (const row of rows) expect(row.kept).toBe(row.derived);
  });

  it("summary buckets: a manual or domain suppression counts the contact unsubscribed, a soft-bounce one bounced, so subscribed means currently emailable", async () => {
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
    const actor = systemActor("test", workspaceId);
    const ids: Record<string, string> = {};
    for (const email of ["plain@example.com", "manual@example.com", "someone@blocked.example", "soft@example.com"]) {
      ids[email] = (await upsertContact(ctx, actor, { email, topicIds: [topicId] })).contact.id;
    }
    await createSuppression(ctx, actor, { email: "manual@example.com" });
    const { suppression: domainBlock } = await createSuppression(ctx, actor, { domain: "blocked.example" });
    await createSuppression(ctx, actor, { email: "soft@example.com" }, "soft_bounce");
    // A contact added under an existing domain block starts unsubscribed.
    ids["later@blocked.example"] = (await upsertContact(ctx, actor, { email: "later@blocked.example" })).contact.id;

    const statuses = async () =>
      Object.fromEntries(
        (
          await ctx.db.execute<{ email: string; kept: string; derived: string }>(
            sql`select contacts.email, r.status as kept, ${sql.raw(DERIVED_CONTACT_STATUS_SQL)} as derived from contacts join report_contact_statuses r on r.contact_id = contacts.id where contacts.workspace_id = ${workspaceId}`,
          )
        ).map((row) => [row.email, row.kept === row.derived ? row.kept : `${row.kept} but derived ${row.derived}`]),
      );
    expect(await statuses()).toEqual({
      "plain@example.com": "subscribed",
      "manual@example.com": "unsubscribed",
      "someone@blocked.example": "unsubscribed",
      "soft@example.com": "bounced",
      "later@blocked.example": "unsubscribed",
    });
    const summary = await getSummary(ctx, actor);
    expect(summary.contacts).toEqual({ total: 5, subscribed: 1, unsubscribed: 3, bounced: 1, complained: 0 });
    // The API's status filter and field read the same status.
    const { key } = await seedKey(ctx, workspaceId);
    const listed = await callApi("GET", "/v1/contacts?status=unsubscribed", { key });
    expect(listed.body.data.map((c: { email: string }) => c.email).sort()).toEqual([
      "later@blocked.example",
      "manual@example.com",
      "someone@blocked.example",
    ]);
    expect((await callApi("GET", `/v1/contacts/${ids["soft@example.com"]}`, { key })).body.data.status).toBe("bounced");

    // Lifting the domain block makes its contacts emailable again.
    await deleteSuppression(ctx, actor, domainBlock.id);
    expect(await statuses()).toMatchObject({
      "someone@blocked.example": "subscribed",
      "later@blocked.example": "subscribed",
    });
    const maintained = await snapshot(workspaceId);
    await ctx.db.execute(sql`select report_rebuild(${workspaceId})`);
    expect(maintained.workspace).toEqual((await snapshot(workspaceId)).workspace);
    expect(maintained.workspace[0]).toMatchObject({
      contacts_total: "5",
      contacts_unsubscribed: "1",
      contacts_bounced: "1",
    });
  });

  it("contacts created and subscribed in one transaction, as an import chunk writes them, keep the status and counters a rebuild derives", async () => {
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    const first = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
    const second = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
    await createSuppression(ctx, systemActor("test", workspaceId), { email: "bounced@example.com" }, "bounce");
    await withTransaction(ctx, async (tx) => {
      await tx.db.execute(sql`
        insert into contacts (id, workspace_id, email, opted_out_at) values
          ('ct_bulk_fresh', ${workspaceId}, 'fresh@example.com', null),
          ('ct_bulk_optout', ${workspaceId}, 'optout@example.com', now()),
          ('ct_bulk_bounced', ${workspaceId}, 'bounced@example.com', null),
          ('ct_bulk_left', ${workspaceId}, 'left@example.com', null)`);
      // One left the first topic in this same transaction: the second topic's subscription must bring them back.
      await tx.db.execute(sql`
        insert into subscriptions (id, workspace_id, contact_id, topic_id, state) values ('sub_bulk_left', ${workspaceId}, 'ct_bulk_left', ${first}, 'unsubscribed')`);
      await tx.db.execute(sql`
        insert into subscriptions (id, workspace_id, contact_id, topic_id, state)
        select 'sub_bulk_' || c.id, ${workspaceId}, c.id, ${second}, 'subscribed' from contacts c where c.id like 'ct_bulk_%'`);
    });
    const rows = await ctx.db.execute<{ id: string; derived: string; kept: string }>(
      sql`select contacts.id, ${sql.raw(DERIVED_CONTACT_STATUS_SQL)} as derived, r.status as kept from contacts join report_contact_statuses r on r.contact_id = contacts.id where contacts.workspace_id = ${workspaceId} order by contacts.id`,
    );
    expect(Object.fromEntries(rows.map((r) => [r.id, r.kept]))).toEqual({
      ct_bulk_bounced: "bounced",
      ct_bulk_fresh: "subscribed",
      ct_bulk_left: "subscribed",
      ct_bulk_optout: "unsubscribed",
    });
    for (const row of rows) expect(row.kept).toBe(row.derived);
    const maintained = await snapshot(workspaceId);
    await ctx.db.execute(sql`select report_rebuild(${workspaceId})`);
    expect(maintained.workspace).toEqual((await snapshot(workspaceId)).workspace);
    expect(maintained.workspace[0]).toMatchObject({
      contacts_total: "4",
      contacts_unsubscribed: "1",
      contacts_bounced: "1",
    });
  });

  it("first deliveries, opens and clicks reach the counters at the fold; campaign:show's counts fold first", async () => {
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
    const { campaignId, sendIds } = await seedSentCampaign(ctx, {
      workspaceId,
      brandId,
      topicId,
      emails: ["a@example.com"],
    });
    await recordProviderEvent(ctx, { type: "delivered", sendId: sendIds["a@example.com"], occurredAt: clock.now() });
    await recordOpen(ctx, sendIds["a@example.com"]!, { country: null });
    const read = async () =>
      (
        await ctx.db.execute<{ delivered: string; opened: string }>(
          sql`select delivered, opened from report_campaign_counters where campaign_id = ${campaignId}`,
        )
      )[0];
    expect(await read()).toEqual({ delivered: "0", opened: "0" });
    expect(await campaignCounts(ctx, campaignId)).toMatchObject({
      delivered: 1,
      opened: 1,
      recipients: 1,
      accepted: 1,
    });
    expect(await read()).toEqual({ delivered: "1", opened: "1" });
    expect(await foldEngagement(ctx)).toBe(0);
  });

  it("a new contact's count is queued, not held: two signups in open transactions do not wait for each other's commit", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const actor = systemActor("report test", workspaceId);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let firstInserted!: () => void;
    const inserted = new Promise<void>((resolve) => (firstInserted = resolve));
    // The first signup stays uncommitted until the second has committed: were the workspace's counter
    // row part of a contact insert, the second would wait for the first, and the first for the second.
    const first = withTransaction(ctx, async (tx) => {
      await upsertContact(tx, actor, { email: "first@example.com" });
      firstInserted();
      await released;
    });
    await inserted;
    await withTransaction(ctx, async (tx) => {
      await tx.db.execute(sql`set local lock_timeout = '30s'`);
      await upsertContact(tx, actor, { email: "second@example.com" });
    });
    release();
    await first;
    expect((await getSummary(ctx, actor)).contacts).toMatchObject({ total: 2, subscribed: 2 });
  });

  it("every reader folds the queued new-contact counts first: the summary, the versions and the activity count a contact added just before", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const actor = systemActor("report test", workspaceId);
    const queued = async () =>
      Number(
        (
          await ctx.db.execute<{ n: string }>(
            sql`select count(*) as n from report_contact_count_queue where workspace_id = ${workspaceId}`,
          )
        )[0]!.n,
      );
    const before = await readReportVersions(ctx, actor);
    await upsertContact(ctx, actor, { email: "ada@example.com" });
    expect(await queued()).toBe(1);
    const after = await readReportVersions(ctx, actor);
    expect(await queued()).toBe(0);
    expect(after.workspace).toBeGreaterThan(before.workspace);
    expect(after.workspaceActivity).toBeGreaterThan(before.workspaceActivity);
    await upsertContact(ctx, actor, { email: "bob@example.com" });
    expect((await getSummary(ctx, actor)).contacts.total).toBe(2);
    await upsertContact(ctx, actor, { email: "cy@example.com" });
    const to = new Date(clock.now().getTime() + 60_000);
    const { totals } = await getActivity(ctx, actor, {
      from: new Date(to.getTime() - 86_400_000),
      to,
      interval: "day",
    });
    expect(totals.contacts_added).toBe(3);
    expect(await countContacts(ctx, actor, {})).toEqual({ count: 3, more: false });
  });

  it("the report cron folds every workspace's queued counts, and the figures then equal a rebuild", async () => {
    const a = await seedWorkspace(ctx);
    const b = await seedWorkspace(ctx);
    await upsertContact(ctx, systemActor("report test", a.workspaceId), { email: "a@example.com" });
    await upsertContact(ctx, systemActor("report test", b.workspaceId), { email: "b@example.com" });
    expect(await foldAllContactCounts(ctx)).toBeGreaterThanOrEqual(2);
    for (const { workspaceId } of [a, b]) {
      const kept = await snapshot(workspaceId);
      await ctx.db.execute(sql`select report_rebuild(${workspaceId})`);
      expect(await snapshot(workspaceId)).toEqual(kept);
      expect(kept.workspace).toEqual([
        { contacts_total: "1", contacts_unsubscribed: "0", contacts_bounced: "0", contacts_complained: "0" },
      ]);
    }
  });
});

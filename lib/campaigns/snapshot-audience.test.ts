import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { audienceSnapshotParts, campaigns, contacts, sends, workspaceBilling } from "@/lib/db/schema";
import { createSuppression } from "@/lib/suppressions/create-suppression";
import { clearForSending } from "@/lib/testing/clear-for-sending";
import { optOut, seedTopic, seedWorkspace, setSendAllowance } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { cancelCampaign } from "./campaign-actions";
import { createCampaign } from "./save-campaign";
import { planSnapshot, snapshotAudience, SPLIT_AUDIENCE_FROM, takeSnapshotPart } from "./snapshot-audience";

const { ctx } = testCtx();
const PEOPLE = SPLIT_AUDIENCE_FROM + 1_000;

/** A campaign about to start sending to PEOPLE confirmed subscribers, written in bulk (one contact id per number). */
async function largeAudience() {
  const { workspaceId, brandId } = await seedWorkspace(ctx);
  await clearForSending(ctx, workspaceId);
  await setSendAllowance(ctx, workspaceId, 1_000_000);
  const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
  const tag = topicId.slice(-8);
  const contactId = (i: number) => `ct_${tag}${String(i).padStart(18, "0")}`;
  await ctx.db.execute(sql`insert into contacts (id, workspace_id, email)
    select 'ct_' || ${tag} || lpad(i::text, 18, '0'), ${workspaceId}, 'p' || i || '@' || ${tag} || '.example' from generate_series(0, ${PEOPLE - 1}::int) i`);
  await ctx.db.execute(sql`insert into subscriptions (id, workspace_id, contact_id, topic_id, state, source)
    select 'sub_' || ${tag} || lpad(i::text, 18, '0'), ${workspaceId}, 'ct_' || ${tag} || lpad(i::text, 18, '0'), ${topicId}, 'subscribed', 'api' from generate_series(0, ${PEOPLE - 1}::int) i`);
  const { campaignId } = await createCampaign(ctx, systemActor("test", workspaceId), {
    brandId,
    topicId,
    name: "Large",
    subject: "Hi",
    html: "<p>Hi</p>",
  });
  await ctx.db.update(campaigns).set({ status: "sending" }).where(eq(campaigns.id, campaignId));
  return { workspaceId, campaignId, contactId, tag };
}

const sendsOf = (campaignId: string) => ctx.db.select().from(sends).where(eq(sends.campaignId, campaignId));
const sendsUsed = async (workspaceId: string) =>
  (await ctx.db.select().from(workspaceBilling).where(eq(workspaceBilling.workspaceId, workspaceId)))[0]!.sendsUsed;

// Each test writes and reads tens of thousands of rows. Alone they take about 3 s, but in a full run on a
// busy two-core machine two of them once took over 30 s: they get the time their work needs, not a guess at this machine's speed.
const BULK_TEST_TIMEOUT_MS = 300_000;

describe("audience snapshot in parts", { timeout: BULK_TEST_TIMEOUT_MS }, () => {
  it("a large audience is written in two contact ranges at once: the audience rule (suppressed addresses and domains, opt-outs) holds in both, each recipient once, every send id in the campaign's key range", async () => {
    const { workspaceId, campaignId, contactId, tag } = await largeAudience();
    // Excluded recipients on both sides of the split: a suppressed address, an opted-out person and an address at a suppressed domain in each half.
    const actor = systemActor("test", workspaceId);
    await createSuppression(ctx, actor, { email: `p10@${tag}.example` });
    await createSuppression(ctx, actor, { email: `p${PEOPLE - 10}@${tag}.example` });
    await optOut(ctx, contactId(20), "all");
    await optOut(ctx, contactId(PEOPLE - 20), "all");
    // And a suppressed domain with an address in each half.
    for (const i of [30, PEOPLE - 30])
      await ctx.db
        .update(contacts)
        .set({ email: `p${i}@elsewhere-${tag}.example` })
        .where(eq(contacts.id, contactId(i)));
    await createSuppression(ctx, actor, { domain: `elsewhere-${tag}.example` });

    expect(await snapshotAudience(ctx, campaignId)).toEqual({ status: "sending", recipients: PEOPLE - 6 });

    const parts = await ctx.db
      .select()
      .from(audienceSnapshotParts)
      .where(eq(audienceSnapshotParts.campaignId, campaignId));
    expect(parts).toHaveLength(2);
    expect(parts.every((part) => part.recipients! > PEOPLE / 4)).toBe(true);
    const written = await sendsOf(campaignId);
    expect(written).toHaveLength(PEOPLE - 6);
    expect(new Set(written.map((s) => s.contactId)).size).toBe(PEOPLE - 6);
    for (const excluded of [10, 20, 30, PEOPLE - 10, PEOPLE - 20, PEOPLE - 30])
      expect(written.some((s) => s.contactId === contactId(excluded))).toBe(false);
    const [campaign] = await ctx.db.select().from(campaigns).where(eq(campaigns.id, campaignId));
    expect(written.every((s) => s.id.startsWith(campaign!.sendIdPrefix!) && s.state === "queued")).toBe(true);
    expect(campaign!.recipientCount).toBe(PEOPLE - 6);
    expect(await sendsUsed(workspaceId)).toBe(PEOPLE - 6);
  });

  it("a snapshot cut short after one part is finished by the next attempt, which never writes that part again", async () => {
    const { workspaceId, campaignId } = await largeAudience();
    const plan = await planSnapshot(ctx, campaignId);
    if ("status" in plan) throw new Error("expected a plan");
    await takeSnapshotPart(ctx, plan.campaign, plan.parts[0]!);
    const firstPart = (await sendsOf(campaignId)).length;
    expect(firstPart).toBeGreaterThan(0);
    expect(await sendsUsed(workspaceId)).toBe(0);

    // The retried step plans again (finding the same plan), takes only the part left, then finishes.
    expect(await snapshotAudience(ctx, campaignId)).toEqual({ status: "sending", recipients: PEOPLE });
    await takeSnapshotPart(ctx, plan.campaign, plan.parts[0]!);
    expect(await snapshotAudience(ctx, campaignId)).toEqual({ status: "sending", recipients: PEOPLE });
    const written = await sendsOf(campaignId);
    expect(written).toHaveLength(PEOPLE);
    expect(new Set(written.map((s) => s.contactId)).size).toBe(PEOPLE);
    expect(await sendsUsed(workspaceId)).toBe(PEOPLE);
  });

  it("cancelled during the snapshot: the sends written are cancelled, the rest are never written, and nothing was reserved or refunded", async () => {
    const { workspaceId, campaignId } = await largeAudience();
    await ctx.db.update(workspaceBilling).set({ sendsUsed: 7 }).where(eq(workspaceBilling.workspaceId, workspaceId));
    const plan = await planSnapshot(ctx, campaignId);
    if ("status" in plan) throw new Error("expected a plan");
    await takeSnapshotPart(ctx, plan.campaign, plan.parts[0]!);

    const firstPart = (await sendsOf(campaignId)).length;
    expect(firstPart).toBeGreaterThan(0);

    expect((await cancelCampaign(ctx, systemActor("test", workspaceId), campaignId)).refunded).toBe(0);
    expect(await snapshotAudience(ctx, campaignId)).toEqual({ status: "cancelled", recipients: 0 });
    await takeSnapshotPart(ctx, plan.campaign, plan.parts[1]!);

    const written = await sendsOf(campaignId);
    expect(written).toHaveLength(firstPart);
    expect(written.every((s) => s.state === "cancelled")).toBe(true);
    expect(await sendsUsed(workspaceId)).toBe(7);
  });
  it("a cancel while a part is being written waits for that part, then cancels every send it wrote", async () => {
    const { workspaceId, campaignId } = await largeAudience();
    const plan = await planSnapshot(ctx, campaignId);
    if ("status" in plan) throw new Error("expected a plan");
    let cancel: Promise<unknown> | undefined;
    await ctx.db.transaction(async (tx) => {
      await takeSnapshotPart({ ...ctx, db: tx }, plan.campaign, plan.parts[0]!);
      // The part's transaction is still open: a cancel made now must not run past its uncommitted sends.
      cancel = cancelCampaign(ctx, systemActor("test", workspaceId), campaignId);
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    await cancel;
    const written = await sendsOf(campaignId);
    expect(written.length).toBeGreaterThan(0);
    expect(written.filter((s) => s.state !== "cancelled")).toEqual([]);
  });

  it("two snapshot attempts at once write each recipient once and reserve the allowance once", async () => {
    const { workspaceId, campaignId } = await largeAudience();
    const results = await Promise.all([snapshotAudience(ctx, campaignId), snapshotAudience(ctx, campaignId)]);
    expect(results).toEqual([
      { status: "sending", recipients: PEOPLE },
      { status: "sending", recipients: PEOPLE },
    ]);
    const written = await sendsOf(campaignId);
    expect(written).toHaveLength(PEOPLE);
    expect(new Set(written.map((s) => s.contactId)).size).toBe(PEOPLE);
    expect(await sendsUsed(workspaceId)).toBe(PEOPLE);
  });
});

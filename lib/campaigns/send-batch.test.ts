import { asc, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { campaigns, sends } from "@/lib/db/schema";
import { getMailTransport } from "@/lib/mail/get-mail-transport";
import { listMailbox } from "@/lib/mail/list-mailbox";
import { clearForSending } from "@/lib/testing/clear-for-sending";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { cancelCampaign } from "./campaign-actions";
import { createCampaign } from "./save-campaign";
import { sendNextBatch } from "./send-batch";
import { snapshotAudience } from "./snapshot-audience";

const { ctx, clock } = testCtx();

describe("sending batches", () => {
  it("a batch left in sending by a run that died for good keeps the campaign open and is taken over after 10 minutes, even once another run has walked past it", async () => {
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    await clearForSending(ctx, workspaceId);
    const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
    for (let i = 0; i < 6; i++)
      await upsertContact(ctx, systemActor("test", workspaceId), { email: `b${i}@example.com`, topicIds: [topicId] });
    const { campaignId } = await createCampaign(ctx, systemActor("test", workspaceId), {
      brandId,
      topicId,
      name: "Walk",
      subject: "Hi",
      html: "<p>Hi</p>",
    });
    await ctx.db.update(campaigns).set({ status: "sending" }).where(eq(campaigns.id, campaignId));
    await snapshotAudience(ctx, campaignId);
    // A run claimed the first two and died before sending them.
    const first = (
      await ctx.db.select().from(sends).where(eq(sends.campaignId, campaignId)).orderBy(asc(sends.id))
    ).slice(0, 2);
    await ctx.db
      .update(sends)
      .set({ state: "sending", claimedBy: "dead-run", updatedAt: clock.now() })
      .where(
        inArray(
          sends.id,
          first.map((s) => s.id),
        ),
      );

    const transport = getMailTransport();
    const walk = async (after: string | null) =>
      sendNextBatch(ctx, transport, { campaignId, size: 2, claimant: "live-run", after });
    const a = await walk(null);
    const b = await walk(a.next);
    expect([a.sent, b.sent]).toEqual([2, 2]);
    // Nothing else can be taken while the dead run's claim is recent, but the campaign is not done: the walk says so.
    expect(await walk(b.next)).toMatchObject({ sent: 0, next: null, heldElsewhere: true });

    clock.advance(11 * 60_000);
    const c = await walk(b.next);
    expect(c.sent).toBe(2);
    expect(await walk(c.next)).toMatchObject({ sent: 0, next: null, heldElsewhere: false });
    const mail = await listMailbox(ctx, systemActor("test", workspaceId), { limit: 100 });
    expect(mail.map((m) => m.to).sort()).toEqual(["b0", "b1", "b2", "b3", "b4", "b5"].map((b) => `${b}@example.com`));
  });
});

describe("sending batches across a pause", () => {
  it("a run stopped by a pause gives back the sends it held, so the resumed dispatch sends them at once, not 10 minutes later", async () => {
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    await clearForSending(ctx, workspaceId);
    const actor = systemActor("test", workspaceId);
    const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
    for (let i = 0; i < 4; i++) await upsertContact(ctx, actor, { email: `p${i}@example.com`, topicIds: [topicId] });
    const { campaignId } = await createCampaign(ctx, actor, {
      brandId,
      topicId,
      name: "Paused",
      subject: "Hi",
      html: "<p>Hi</p>",
    });
    await ctx.db.update(campaigns).set({ status: "sending" }).where(eq(campaigns.id, campaignId));
    await snapshotAudience(ctx, campaignId);
    // The first run claimed two and crashed before sending them; the campaign was paused before it came back.
    const held = (await ctx.db.select().from(sends).where(eq(sends.campaignId, campaignId)).orderBy(asc(sends.id)))
      .slice(0, 2)
      .map((s) => s.id);
    await ctx.db
      .update(sends)
      .set({ state: "sending", claimedBy: "first-run", updatedAt: clock.now() })
      .where(inArray(sends.id, held));
    await ctx.db.update(campaigns).set({ status: "paused" }).where(eq(campaigns.id, campaignId));

    const transport = getMailTransport();
    expect(
      await sendNextBatch(ctx, transport, { campaignId, size: 10, claimant: "first-run", after: null }),
    ).toMatchObject({ stopped: "paused" });
    expect(
      (await ctx.db.select().from(sends).where(inArray(sends.id, held))).map((s) => [s.state, s.claimedBy]),
    ).toEqual([
      ["queued", null],
      ["queued", null],
    ]);

    await ctx.db.update(campaigns).set({ status: "sending" }).where(eq(campaigns.id, campaignId));
    expect(
      await sendNextBatch(ctx, transport, { campaignId, size: 10, claimant: "resumed-run", after: null }),
    ).toMatchObject({ sent: 4 });
    expect(
      await sendNextBatch(ctx, transport, { campaignId, size: 10, claimant: "resumed-run", after: null }),
    ).toMatchObject({ sent: 0, heldElsewhere: false });
  });
});

describe("sending batches of a campaign snapshotted before send id prefixes", () => {
  it("its sends (random ids, no prefix) are still found by campaign: batches send them and cancel cancels the rest", async () => {
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    await clearForSending(ctx, workspaceId);
    const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
    const people = [];
    for (let i = 0; i < 4; i++)
      people.push(
        (
          await upsertContact(ctx, systemActor("test", workspaceId), {
            email: `old${i}@example.com`,
            topicIds: [topicId],
          })
        ).contact,
      );
    const { campaignId } = await createCampaign(ctx, systemActor("test", workspaceId), {
      brandId,
      topicId,
      name: "Old",
      subject: "Hi",
      html: "<p>Hi</p>",
    });
    await ctx.db
      .update(campaigns)
      .set({ status: "sending", recipientCount: 4, sentAt: clock.now() })
      .where(eq(campaigns.id, campaignId));
    await ctx.db.insert(sends).values(
      people.map((p, i) => ({
        id: `snd_old${i}${p.id.slice(-20)}`,
        workspaceId,
        campaignId,
        contactId: p.id,
        email: p.email,
      })),
    );

    const first = await sendNextBatch(ctx, getMailTransport(), {
      campaignId,
      size: 2,
      claimant: "old-run",
      after: null,
    });
    expect(first.sent).toBe(2);
    expect((await cancelCampaign(ctx, systemActor("test", workspaceId), campaignId)).refunded).toBe(2);
    const states = (await ctx.db.select().from(sends).where(eq(sends.campaignId, campaignId)))
      .map((s) => s.state)
      .sort();
    expect(states).toEqual(["accepted", "accepted", "cancelled", "cancelled"]);
  });
});

import { and, asc, count, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { POST as oneClickPost } from "@/app/(public)/u/[token]/route";
import { functions } from "@/inngest";
import { inngest, routeEmbeddedEvents } from "@/inngest/client";
import { createEmbeddedExecutor } from "@/inngest/embedded/executor";
import { spawnWorker } from "@/inngest/embedded/testing/spawn-worker";
import { setWorkflowCtx } from "@/inngest/workflow-ctx";
import { systemActor } from "@/lib/actor";
import { approveBrand } from "@/lib/brands/approve-brand";
import { updateBrand } from "@/lib/brands/update-brand";
import {
  cancelCampaign,
  pauseCampaign,
  resumeCampaign,
  scheduleCampaign,
  sendCampaignNow,
  startScheduledCampaign,
  unscheduleCampaign,
} from "@/lib/campaigns/campaign-actions";
import { setProviderRate } from "@/lib/campaigns/provider-pacing";
import { createCampaign } from "@/lib/campaigns/save-campaign";
import { showCampaign } from "@/lib/campaigns/show-campaign";
import { snapshotAudience } from "@/lib/campaigns/snapshot-audience";
import { systemClock } from "@/lib/clock";
import { oneClickUnsubscribeUrl } from "@/lib/consent/links";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import {
  campaigns,
  events,
  mailMessages,
  memberships,
  sends,
  users,
  verifiedAddresses,
  workspaceBilling,
} from "@/lib/db/schema";
import { overrideEnvForTests, reloadEnv } from "@/lib/env";
import { createList } from "@/lib/lists/create-list";
import { addListMembers } from "@/lib/lists/list-membership";
import { listMailbox } from "@/lib/mail/list-mailbox";
import { signedMessageId } from "@/lib/mail/message-id";
import { subscribeFromForm } from "@/lib/subscriptions/subscribe-from-form";
import { createSuppression } from "@/lib/suppressions/create-suppression";
import { clearForSending } from "@/lib/testing/clear-for-sending";
import { seedBulkCampaign } from "@/lib/testing/dispatch-chaos";
import { optOut, seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { seedProviderCampaign } from "@/lib/testing/provider-campaign";
import { testCtx } from "@/lib/testing/test-context";
import { createUser } from "@/lib/users/create-user";
import { approveWorkspace } from "@/lib/workspaces/approve-workspace";
import { brandClearance } from "@/lib/workspaces/sending-clearance";

const { ctx, clock } = testCtx(new Date(Date.now() + 60 * 60_000));
const executor = createEmbeddedExecutor({ client: inngest, functions });
beforeAll(() => {
  setWorkflowCtx(ctx);
  routeEmbeddedEvents((sent) => executor.enqueue(ctx, sent));
});
afterAll(() => {
  setWorkflowCtx(undefined);
  reloadEnv();
});

async function audience(opts: { approved?: boolean; people?: number } = {}) {
  const { workspaceId, brandId } = await seedWorkspace(ctx);
  if (opts.approved ?? true) await clearForSending(ctx, workspaceId);
  const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
  const actor = systemActor("test", workspaceId);
  const ids: string[] = [];
  for (let i = 0; i < (opts.people ?? 3); i++)
    ids.push(
      (await upsertContact(ctx, actor, { email: `r${i}@example.com`, firstName: `R${i}`, topicIds: [topicId] })).contact
        .id,
    );
  const base = {
    brandId,
    topicId,
    name: "News",
    subject: "Hi {{contact.first_name}}",
    html: "<p>Hello {{contact.first_name}} from {{brand.name}}</p>",
  };
  return { workspaceId, brandId, topicId, actor, ids, base };
}
const mailOf = (workspaceId: string) => listMailbox(ctx, systemActor("test", workspaceId), { limit: 1000 });
const eventTypes = async (workspaceId: string) =>
  (await ctx.db.select().from(events).where(eq(events.workspaceId, workspaceId))).map((e) => e.type);
async function drain(times = 20) {
  for (let i = 0; i < times; i++) {
    clock.advance(1000);
    await executor.runDue(ctx);
  }
}

describe("campaign dispatch", () => {
  it("audience = confirmed subscribers of the topic, narrowed to the list, minus suppressed addresses and domains and opted-out people, each once", async () => {
    const { workspaceId, brandId, topicId, actor, base } = await audience({ people: 0 });
    const { listId } = await createList(ctx, actor, { brandId, name: "Beta" });
    const make = async (email: string, topics = [topicId]) =>
      (await upsertContact(ctx, actor, { email, firstName: "X", topicIds: topics })).contact.id;
    const inList = await Promise.all(
      ["in@example.com", "blocked@example.com", "someone@blocked-domain.example", "left@example.com"].map((e) =>
        make(e),
      ),
    );
    await make("not-in-list@example.com");
    const other = await seedTopic(ctx, workspaceId, brandId);
    const otherTopicOnly = await make("other-topic@example.com", [other]);
    await subscribeFromForm(ctx, actor, { topicId, email: "pending@example.com" });
    await addListMembers(ctx, actor, listId, [...inList, otherTopicOnly]);
    await createSuppression(ctx, actor, { email: "blocked@example.com" });
    await createSuppression(ctx, actor, { domain: "blocked-domain.example" });
    await optOut(ctx, inList[3]!, "all");
    // A domain suppression blocks every address at that domain, now and later.
    const later = await make("newcomer@blocked-domain.example");
    await addListMembers(ctx, actor, listId, [later]);

    const { campaignId } = await createCampaign(ctx, actor, { ...base, listId });
    await sendCampaignNow(ctx, actor, campaignId);
    await drain(3);
    const mail = await mailOf(workspaceId);
    expect(mail.map((m) => m.to)).toEqual(["in@example.com"]);
    const { campaign, counts } = await showCampaign(ctx, actor, campaignId);
    expect(campaign).toMatchObject({ status: "sent", recipientCount: 1 });
    expect(counts).toMatchObject({ recipients: 1, accepted: 1, failed: 0, skipped: 0 });
    expect(await eventTypes(workspaceId)).toEqual(expect.arrayContaining(["campaign.sending", "campaign.sent"]));
  });

  it("every campaign mail carries the unsubscribe link and the one-click headers, the brand's postal address and merged values", async () => {
    const { actor, workspaceId, base } = await audience({ people: 1 });
    const { campaignId } = await createCampaign(ctx, actor, {
      ...base,
      html: `${base.html}<a href="https://shop.example/new">New</a>`,
    });
    await sendCampaignNow(ctx, actor, campaignId);
    await drain(3);
    const [mail] = await mailOf(workspaceId);
    // Body links are tracked (signed redirect); the consent links are not.
    expect(mail!.links.some((l) => l.includes("/t/c/"))).toBe(true);
    expect(mail!.links).not.toContain("https://shop.example/new");
    expect(mail!.html).toMatch(/<img src="[^"]*\/t\/o\//);
    expect(mail!.subject).toBe("Hi R0");
    expect(mail!.html).toContain("Hello R0 from Brand");
    expect(mail!.headers["List-Unsubscribe"]).toMatch(/^<http.*\/u\/.+>$/);
    expect(mail!.headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    expect(mail!.headers["List-Id"]).toBeDefined();
    for (const part of [mail!.text, mail!.html]) expect(part).toContain("1 Main Street, Springfield");
    expect(mail!.links.some((l) => l.includes("/unsubscribe/"))).toBe(true);
    const [send] = await ctx.db.select().from(sends).where(eq(sends.campaignId, campaignId));
    expect(mail!.headers["Message-ID"]).toBe(signedMessageId(send!.id, mail!.from.split("@")[1]!));
  });

  it("unsubscribing with a campaign mail's one-click link counts for that campaign: the link names the send it came in", async () => {
    const { actor, workspaceId, topicId, base } = await audience({ people: 2 });
    const { campaignId } = await createCampaign(ctx, actor, base);
    await sendCampaignNow(ctx, actor, campaignId);
    await drain(3);
    const mail = (await mailOf(workspaceId)).find((m) => m.to === "r1@example.com")!;
    const url = mail.headers["List-Unsubscribe"]!.slice(1, -1);
    const token = url.split("/u/")[1]!;
    const response = await oneClickPost(new Request(url, { method: "POST", body: "List-Unsubscribe=One-Click" }), {
      params: Promise.resolve({ token }),
    });
    expect(response.status).toBe(200);
    const stamped = (await ctx.db.select().from(sends).where(eq(sends.campaignId, campaignId))).filter(
      (s) => s.unsubscribedAt,
    );
    expect(stamped.map((s) => s.email)).toEqual(["r1@example.com"]);
    const [unsubscribed] = await ctx.db
      .select()
      .from(events)
      .where(and(eq(events.workspaceId, workspaceId), eq(events.type, "contact.unsubscribed")));
    expect(unsubscribed!.data).toMatchObject({ campaign_id: campaignId, topic_id: topicId });
  });

  it("a one-click link mailed before links named their send (campaign only) still counts for that campaign", async () => {
    const { actor, topicId, ids, base } = await audience({ people: 2 });
    const { campaignId } = await createCampaign(ctx, actor, base);
    await sendCampaignNow(ctx, actor, campaignId);
    await drain(3);
    const url = oneClickUnsubscribeUrl({ contactId: ids[0]!, topicId, campaignId });
    const response = await oneClickPost(new Request(url, { method: "POST", body: "List-Unsubscribe=One-Click" }), {
      params: Promise.resolve({ token: url.split("/u/")[1]! }),
    });
    expect(response.status).toBe(200);
    const stamped = (await ctx.db.select().from(sends).where(eq(sends.campaignId, campaignId))).filter(
      (s) => s.unsubscribedAt,
    );
    expect(stamped.map((s) => s.contactId)).toEqual([ids[0]]);
  });

  it("a recipient missing a used merge tag is skipped: no mail, not counted, email.failed with the tag, listed by campaign:show", async () => {
    const { workspaceId, actor, topicId, base } = await audience({ people: 2 });
    await upsertContact(ctx, actor, { email: "nameless@example.com", topicIds: [topicId] });
    const { campaignId } = await createCampaign(ctx, actor, base);
    await sendCampaignNow(ctx, actor, campaignId);
    await drain(3);
    expect((await mailOf(workspaceId)).map((m) => m.to).sort()).toEqual(["r0@example.com", "r1@example.com"]);
    const { counts, skipped } = await showCampaign(ctx, actor, campaignId);
    expect(counts).toMatchObject({ recipients: 3, accepted: 2, skipped: 1 });
    expect(skipped).toEqual([{ email: "nameless@example.com", reason: "missing_merge_tag:contact.first_name" }]);
    const [billing] = await ctx.db.select().from(workspaceBilling).where(eq(workspaceBilling.workspaceId, workspaceId));
    expect(billing!.sendsUsed).toBe(2);
    const failed = (
      await ctx.db
        .select()
        .from(events)
        .where(and(eq(events.workspaceId, workspaceId), eq(events.type, "email.failed")))
    )[0]!;
    expect(failed.data).toMatchObject({
      email: "nameless@example.com",
      reason: "missing_merge_tag:contact.first_name",
      campaign_id: campaignId,
      send_id: expect.stringMatching(/^snd_/),
    });
    const sent = (
      await ctx.db
        .select()
        .from(events)
        .where(and(eq(events.workspaceId, workspaceId), eq(events.type, "campaign.sent")))
    )[0]!;
    expect(sent.data).toMatchObject({ status: "sent", recipient_count: 3, skipped: 1, failed: 0 });
  });

  it("a workspace in its sandbox sends only to its verified addresses and its members; others fail with recipient_not_verified and are not counted", async () => {
    const { actor, workspaceId, topicId, base } = await audience({ approved: false, people: 3 });
    await ctx.db.insert(verifiedAddresses).values({ workspaceId, email: "r1@example.com", verifiedAt: clock.now() });
    await ctx.db.insert(verifiedAddresses).values({ workspaceId, email: "r2@example.com", verifiedAt: null }); // asked, link not clicked
    const [owner] = await ctx.db
      .select({ email: users.email })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(eq(memberships.workspaceId, workspaceId));
    await createUser(ctx, { email: owner!.email, password: "owner has signed up" }); // an invitation alone would not count
    await upsertContact(ctx, actor, { email: owner!.email, firstName: "Owner", topicIds: [topicId] });
    const { campaignId } = await createCampaign(ctx, actor, base);
    await sendCampaignNow(ctx, actor, campaignId);
    await drain(3);
    expect((await mailOf(workspaceId)).map((m) => m.to).sort()).toEqual([owner!.email, "r1@example.com"].sort());
    expect((await showCampaign(ctx, actor, campaignId)).skipped.sort((a, b) => a.email.localeCompare(b.email))).toEqual(
      [
        { email: "r0@example.com", reason: "recipient_not_verified" },
        { email: "r2@example.com", reason: "recipient_not_verified" },
      ],
    );
  });

  it("leaving the sandbox takes all three: the workspace reviewed, the brand approved, its domain ready with the sender address at it; then a campaign reaches anyone, with no restart", async () => {
    const { actor, workspaceId, brandId, base } = await audience({ approved: false, people: 1 });
    expect(await brandClearance(ctx, brandId)).toEqual({ open: false, missing: ["domain", "brand", "review"] });
    await approveWorkspace(ctx, workspaceId);
    await approveBrand(ctx, actor, brandId);
    expect(await brandClearance(ctx, brandId)).toEqual({ open: false, missing: ["domain"] });
    const first = await createCampaign(ctx, actor, base);
    // Still in the sandbox, the campaign would reach nobody: it is not sent.
    await expect(sendCampaignNow(ctx, actor, first.campaignId)).rejects.toMatchObject({ code: "no_recipients" });

    await clearForSending(ctx, workspaceId); // the domain at the sender's address becomes ready
    expect(await brandClearance(ctx, brandId)).toEqual({ open: true, missing: [] });
    const second = await createCampaign(ctx, actor, base);
    await sendCampaignNow(ctx, actor, second.campaignId);
    await drain(3);
    expect((await showCampaign(ctx, actor, second.campaignId)).counts).toMatchObject({ accepted: 1, failed: 0 });
  });

  it("pause stops between batches and resume continues where it stopped: everyone once", async () => {
    overrideEnvForTests({ DISPATCH_BATCH_SIZE: "2", DISPATCH_BATCH_PAUSE_MS: "1000" });
    try {
      const { actor, workspaceId, base } = await audience({ people: 6 });
      const { campaignId } = await createCampaign(ctx, actor, base);
      await sendCampaignNow(ctx, actor, campaignId);
      await executor.runDue(ctx);
      expect(await mailOf(workspaceId)).toHaveLength(2);
      await pauseCampaign(ctx, actor, campaignId);
      await drain(3);
      expect(await mailOf(workspaceId)).toHaveLength(2);
      expect((await showCampaign(ctx, actor, campaignId)).campaign.status).toBe("paused");
      await resumeCampaign(ctx, actor, campaignId);
      await drain(10);
      const mail = await mailOf(workspaceId);
      expect(mail.map((m) => m.to).sort()).toEqual([
        "r0@example.com",
        "r1@example.com",
        "r2@example.com",
        "r3@example.com",
        "r4@example.com",
        "r5@example.com",
      ]);
      expect((await showCampaign(ctx, actor, campaignId)).campaign.status).toBe("sent");
      expect(await eventTypes(workspaceId)).toEqual(expect.arrayContaining(["campaign.paused", "campaign.sent"]));
    } finally {
      reloadEnv();
    }
  });

  it("a suppression added while a campaign is in flight, a domain's included, takes effect before the next batch: those sends are counted failed with the reason", async () => {
    overrideEnvForTests({ DISPATCH_BATCH_SIZE: "2", DISPATCH_BATCH_PAUSE_MS: "1000" });
    try {
      const { actor, workspaceId, topicId, base } = await audience({ people: 2 });
      for (const email of [
        "a@late-domain.example",
        "b@late-domain.example",
        "late-address@example.com",
        "last@example.com",
      ])
        await upsertContact(ctx, actor, { email, topicIds: [topicId] });
      const { campaignId } = await createCampaign(ctx, actor, { ...base, subject: "Hi", html: "<p>Hello</p>" });
      await sendCampaignNow(ctx, actor, campaignId);
      await executor.runDue(ctx);
      const first = (await mailOf(workspaceId)).map((m) => m.to);
      expect(first).toHaveLength(2);
      expect(first.some((to) => to.endsWith("late-domain.example") || to === "late-address@example.com")).toBe(false);
      await createSuppression(ctx, actor, { domain: "late-domain.example" });
      await createSuppression(ctx, actor, { email: "late-address@example.com" });
      await drain(10);
      expect((await mailOf(workspaceId)).map((m) => m.to).sort()).toEqual([...first, "last@example.com"].sort());
      const failed = await ctx.db
        .select({ email: sends.email, reason: sends.failureReason })
        .from(sends)
        .where(and(eq(sends.campaignId, campaignId), eq(sends.state, "failed")));
      expect(failed.sort((x, y) => x.email.localeCompare(y.email))).toEqual([
        { email: "a@late-domain.example", reason: "suppressed" },
        { email: "b@late-domain.example", reason: "suppressed" },
        { email: "late-address@example.com", reason: "suppressed" },
      ]);
      expect((await showCampaign(ctx, actor, campaignId)).counts).toMatchObject({ accepted: 3, failed: 3 });
      const failedEvents = (
        await ctx.db
          .select()
          .from(events)
          .where(and(eq(events.workspaceId, workspaceId), eq(events.type, "email.failed")))
      ).map((event) => event.data);
      expect(failedEvents).toHaveLength(3);
      expect(failedEvents.every((data) => (data as { reason: string }).reason === "suppressed")).toBe(true);
    } finally {
      reloadEnv();
    }
  });

  it("editing a brand's identity pauses its sending until review ends; a cosmetic edit does not", async () => {
    overrideEnvForTests({ DISPATCH_BATCH_SIZE: "2", DISPATCH_BATCH_PAUSE_MS: "1000" });
    try {
      const { actor, workspaceId, brandId, base } = await audience({ people: 6 });
      await updateBrand(ctx, actor, brandId, { websiteUrl: "https://new.brand.example.com", primaryColor: "#112233" });
      const { campaignId } = await createCampaign(ctx, actor, base);
      await sendCampaignNow(ctx, actor, campaignId);
      await executor.runDue(ctx);
      expect(await mailOf(workspaceId)).toHaveLength(2);
      const { brand, identityEdited } = await updateBrand(ctx, actor, brandId, {
        postalAddress: "2 New Road, Shelbyville",
      });
      expect(identityEdited).toBe(true);
      expect(brand).toMatchObject({ reviewStatus: "pending", sendingHeldAt: clock.now() });
      await drain(5);
      expect(await mailOf(workspaceId)).toHaveLength(2);
      expect((await showCampaign(ctx, actor, campaignId)).campaign.status).toBe("sending");
      await approveBrand(ctx, actor, brandId);
      await drain(10);
      const mail = await mailOf(workspaceId);
      expect(mail).toHaveLength(6);
      expect(new Set(mail.map((m) => m.to)).size).toBe(6);
      expect(mail.filter((m) => m.text.includes("2 New Road, Shelbyville"))).toHaveLength(4);
      expect((await showCampaign(ctx, actor, campaignId)).campaign.status).toBe("sent");
    } finally {
      reloadEnv();
    }
  });

  it("cancelled mid-send: queued recipients are not sent to and their quota is refunded; campaign.cancelled fires", async () => {
    overrideEnvForTests({ DISPATCH_BATCH_SIZE: "2", DISPATCH_BATCH_PAUSE_MS: "1000" });
    try {
      const { actor, workspaceId, base } = await audience({ people: 5 });
      const { campaignId } = await createCampaign(ctx, actor, base);
      await sendCampaignNow(ctx, actor, campaignId);
      await executor.runDue(ctx);
      const { refunded } = await cancelCampaign(ctx, actor, campaignId);
      expect(refunded).toBe(3);
      await drain(5);
      expect(await mailOf(workspaceId)).toHaveLength(2);
      const { campaign, counts } = await showCampaign(ctx, actor, campaignId);
      expect(campaign.status).toBe("cancelled");
      expect(counts).toMatchObject({ accepted: 2, cancelled: 3 });
      const [billing] = await ctx.db
        .select()
        .from(workspaceBilling)
        .where(eq(workspaceBilling.workspaceId, workspaceId));
      expect(billing!.sendsUsed).toBe(2);
      expect(await eventTypes(workspaceId)).toContain("campaign.cancelled");
    } finally {
      reloadEnv();
    }
  });

  it("a scheduled campaign waits for its time; unscheduled before it, nothing is sent", async () => {
    const { actor, workspaceId, base } = await audience({ people: 1 });
    const { campaignId } = await createCampaign(ctx, actor, base);
    const at = new Date(clock.now().getTime() + 2 * 60 * 60_000);
    await scheduleCampaign(ctx, actor, campaignId, at);
    await drain(2);
    expect(await mailOf(workspaceId)).toHaveLength(0);
    clock.set(at);
    await drain(2);
    expect(await mailOf(workspaceId)).toHaveLength(1);

    const second = await createCampaign(ctx, actor, { ...base, name: "Later" });
    const later = new Date(clock.now().getTime() + 60 * 60_000);
    await scheduleCampaign(ctx, actor, second.campaignId, later);
    await unscheduleCampaign(ctx, actor, second.campaignId);
    clock.set(later);
    await drain(2);
    expect(await mailOf(workspaceId)).toHaveLength(1);
    expect((await showCampaign(ctx, actor, second.campaignId)).campaign.status).toBe("draft");
  });

  it("a campaign moved to a later time starts at the later time only; the run for the earlier time stops", async () => {
    const { actor, workspaceId, base } = await audience({ people: 1 });
    const { campaignId } = await createCampaign(ctx, actor, base);
    const first = new Date(clock.now().getTime() + 60 * 60_000);
    const moved = new Date(clock.now().getTime() + 3 * 60 * 60_000);
    await scheduleCampaign(ctx, actor, campaignId, first);
    await unscheduleCampaign(ctx, actor, campaignId);
    await scheduleCampaign(ctx, actor, campaignId, moved);
    clock.set(first);
    await drain(2);
    expect(await mailOf(workspaceId)).toHaveLength(0);
    expect((await showCampaign(ctx, actor, campaignId)).campaign.status).toBe("scheduled");
    clock.set(moved);
    await drain(2);
    expect(await mailOf(workspaceId)).toHaveLength(1);
    expect(await startScheduledCampaign(ctx, campaignId, moved)).toBe(false); // already sending: a repeated start changes nothing
  });

  it("two dispatch runs racing on one campaign send every recipient exactly once", async () => {
    overrideEnvForTests({ DISPATCH_BATCH_SIZE: "3" });
    try {
      const { actor, workspaceId, base } = await audience({ people: 12 });
      const { campaignId } = await createCampaign(ctx, actor, base);
      await sendCampaignNow(ctx, actor, campaignId);
      // A second request for the same campaign: two runs, two executors, at once.
      await executor.enqueue(ctx, [
        { name: "campaign/dispatch.requested", id: `race-${campaignId}`, data: { campaignId, at: null } },
      ]);
      const second = createEmbeddedExecutor({ client: inngest, functions });
      await Promise.all([executor.runDue(ctx), second.runDue(ctx)]);
      await drain(3);
      const mail = await mailOf(workspaceId);
      expect(mail).toHaveLength(12);
      expect(new Set(mail.map((m) => m.to)).size).toBe(12);
      expect((await showCampaign(ctx, actor, campaignId)).counts).toMatchObject({ recipients: 12, accepted: 12 });
    } finally {
      reloadEnv();
    }
  });
});

describe("campaign dispatch with sends held by another run", () => {
  it("a run that finds sends held by another run does not complete the campaign: it waits and takes them over once their claim is abandoned", async () => {
    const { actor, workspaceId, base } = await audience({ people: 4 });
    const { campaignId } = await createCampaign(ctx, actor, base);
    // The snapshot was taken and another run claimed two sends, then died (say, paused and resumed before it came back).
    await ctx.db.update(campaigns).set({ status: "sending" }).where(eq(campaigns.id, campaignId));
    await snapshotAudience(ctx, campaignId);
    const held = (
      await ctx.db.select().from(sends).where(eq(sends.campaignId, campaignId)).orderBy(asc(sends.id))
    ).slice(0, 2);
    await ctx.db
      .update(sends)
      .set({ state: "sending", claimedBy: "dead-run", updatedAt: clock.now() })
      .where(
        inArray(
          sends.id,
          held.map((h) => h.id),
        ),
      );

    await executor.enqueue(ctx, [
      { name: "campaign/dispatch.requested", id: `after-crash-${campaignId}`, data: { campaignId, at: null } },
    ]);
    await drain(5);
    expect(await mailOf(workspaceId)).toHaveLength(2);
    expect((await showCampaign(ctx, actor, campaignId)).campaign.status).toBe("sending");

    clock.advance(11 * 60_000);
    await drain(5);
    const mail = await mailOf(workspaceId);
    expect(new Set(mail.map((m) => m.to)).size).toBe(4);
    expect(mail).toHaveLength(4);
    expect((await showCampaign(ctx, actor, campaignId)).campaign.status).toBe("sent");
  });

  it("sends waiting for their provider's pace are waited for by the run itself, asleep until the bucket refills, then the campaign completes", async () => {
    const { workspaceId, campaignId } = await seedProviderCampaign(ctx, { "gmail.com": 5 });
    const actor = systemActor("test", workspaceId);
    await setProviderRate(ctx, actor, { provider: "gmail", ratePerMinute: 2 });
    await executor.enqueue(ctx, [
      { name: "campaign/dispatch.requested", id: `paced-${campaignId}`, data: { campaignId, at: null } },
    ]);
    await drain(5);
    expect(await mailOf(workspaceId)).toHaveLength(2);
    expect((await showCampaign(ctx, actor, campaignId)).campaign.status).toBe("sending");
    clock.advance(55_000);
    await drain(5);
    expect(await mailOf(workspaceId)).toHaveLength(4);
    clock.advance(25_000);
    await drain(5);
    expect(await mailOf(workspaceId)).toHaveLength(5);
    expect((await showCampaign(ctx, actor, campaignId)).campaign.status).toBe("sent");
  });
});

// A worker is a child process: on a busy machine it may take many seconds to start, so these wait on
// what it did, not on a time sized to one machine.
describe("campaign dispatch across a crash", { timeout: 300_000 }, () => {
  it("killing the worker at any moment during dispatch and restarting sends every recipient exactly once", async () => {
    const { actor, workspaceId, base } = await audience({ people: 200 });
    const { campaignId } = await createCampaign(ctx, actor, base);
    // The worker runs on real time: queue the dispatch on real time too.
    await sendCampaignNow({ ...ctx, clock: systemClock }, actor, campaignId);
    const mailed = async () =>
      (await ctx.db.select({ n: count() }).from(mailMessages).where(eq(mailMessages.workspaceId, workspaceId)))[0]!.n;

    // The worker sends 20 a batch with a second between batches; it is killed mid-campaign.
    const child = spawnWorker({ DISPATCH_BATCH_SIZE: "20", DISPATCH_BATCH_PAUSE_MS: "1000" });
    for (let i = 0; i < 4000 && (await mailed()) < 40; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    child.kill("SIGKILL");
    await child.exited;
    const before = await mailed();
    expect(before).toBeGreaterThanOrEqual(40);
    expect(before).toBeLessThan(200);

    // Its lease runs out and this process carries the same run on.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    await drain(10);
    const mail = await mailOf(workspaceId);
    expect(mail).toHaveLength(200);
    expect(new Set(mail.map((m) => m.to)).size).toBe(200);
    const { campaign, counts } = await showCampaign(ctx, actor, campaignId);
    expect(campaign.status).toBe("sent");
    expect(counts).toMatchObject({ recipients: 200, accepted: 200, queued: 0 });
  });

  it("SIGTERM during dispatch finishes the batch in hand, hands the run back, and the next start sends the rest exactly once", async () => {
    // Batches back to back (no pause between them): the run never waits, so only the hand-back gives it up.
    const { workspaceId, campaignId } = await seedBulkCampaign(ctx, 2000);
    const actor = systemActor("test", workspaceId);
    await sendCampaignNow({ ...ctx, clock: systemClock }, actor, campaignId);
    const mailed = async () =>
      (await ctx.db.select({ n: count() }).from(mailMessages).where(eq(mailMessages.workspaceId, workspaceId)))[0]!.n;

    const child = spawnWorker({ DISPATCH_BATCH_SIZE: "20", DISPATCH_BATCH_PAUSE_MS: "0" });
    for (let i = 0; i < 6000 && (await mailed()) < 40; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    child.kill("SIGTERM");
    expect(await child.exited).toBe(0);

    // Stopped between batches: nothing half sent, the run's lease given up rather than left to lapse.
    const before = await mailed();
    expect(before).toBeGreaterThanOrEqual(40);
    expect(before).toBeLessThan(2000);
    expect(before % 20).toBe(0);
    expect(
      await ctx.db
        .select()
        .from(sends)
        .where(and(eq(sends.campaignId, campaignId), eq(sends.state, "sending"))),
    ).toEqual([]);
    const [run] = await ctx.db.execute<{ status: string; lease_until: Date | null }>(
      sql`select status, lease_until from workflow_runs where function_id like '%dispatch-campaign' and event->'data'->>'campaignId' = ${campaignId}`,
    );
    expect(run).toMatchObject({ status: "pending", lease_until: null });

    await drain(10);
    const [mail] = await ctx.db.execute<{ n: number; people: number }>(
      sql`select count(*)::int as n, count(distinct to_address)::int as people from mail_messages where workspace_id = ${workspaceId}`,
    );
    expect(mail).toEqual({ n: 2000, people: 2000 });
    expect((await showCampaign(ctx, actor, campaignId)).campaign.status).toBe("sent");
  });
});

import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { defineAttribute } from "@/lib/contacts/define-attribute";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { campaigns, sends, subscriptions, verifiedAddresses, workspaceBilling } from "@/lib/db/schema";
import { createList } from "@/lib/lists/create-list";
import { addListMembers } from "@/lib/lists/list-membership";
import { getMailTransport } from "@/lib/mail/get-mail-transport";
import { createSuppression } from "@/lib/suppressions/create-suppression";
import { optOut, seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { previewAudience } from "./preview-audience";
import { createCampaign } from "./save-campaign";
import { sendNextBatch } from "./send-batch";
import { snapshotAudience } from "./snapshot-audience";

const { ctx } = testCtx();

/**
 * A workspace in review with one of each kind of person around a topic and a list: the campaign uses
 * {{contact.first_name}} in the subject and {{contact.plan}} in the body.
 */
async function audienceOfEveryKind() {
  const { workspaceId, brandId } = await seedWorkspace(ctx);
  const operator = systemActor("test", workspaceId);
  const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
  const { listId } = await createList(ctx, operator, { brandId, name: "Customers" });
  await defineAttribute(ctx, operator, { key: "plan", type: "string" });
  const person = async (
    email: string,
    opts: { subscribed?: boolean; onList?: boolean; verified?: boolean; firstName?: string | null; plan?: string } = {},
  ) => {
    const { subscribed = true, onList = true, verified = true, firstName = "Ada", plan = "pro" } = opts;
    const { contact } = await upsertContact(ctx, operator, {
      email,
      firstName,
      attributes: plan === undefined ? {} : { plan },
      topicIds: subscribed ? [topicId] : [],
    });
    if (onList) await addListMembers(ctx, operator, listId, [contact.id]);
    if (verified) await ctx.db.insert(verifiedAddresses).values({ workspaceId, email, verifiedAt: ctx.clock.now() });
    return contact;
  };
  await person("gets-it-1@example.com");
  await person("gets-it-2@example.com");
  await person("not-verified@example.com", { verified: false });
  await person("no-first-name@example.com", { firstName: null });
  await person("no-plan@example.com", { plan: "" });
  await person("off-list@example.com", { onList: false });
  await person("list-only@example.com", { subscribed: false });
  const pending = await person("pending@example.com");
  await ctx.db
    .update(subscriptions)
    .set({ state: "pending" })
    .where(and(eq(subscriptions.contactId, pending.id), eq(subscriptions.topicId, topicId)));
  await optOut(ctx, (await person("left-topic@example.com")).id, topicId);
  await optOut(ctx, (await person("left-everything@example.com")).id, "all");
  await person("complained@example.com");
  await createSuppression(ctx, operator, { email: "complained@example.com" }, "complaint");
  await person("bounced@example.com");
  await createSuppression(ctx, operator, { email: "bounced@example.com" }, "bounce");
  await person("blocked@example.com");
  await createSuppression(ctx, operator, { email: "blocked@example.com" });
  await person("someone@blocked-domain.example");
  await createSuppression(ctx, operator, { domain: "blocked-domain.example" });
  const { campaignId } = await createCampaign(ctx, operator, {
    brandId,
    topicId,
    listId,
    name: "Everyone",
    subject: "Hi {{contact.first_name}}",
    html: "<p>Your plan: {{contact.plan}} at {{brand.name}}</p>",
  });
  return { workspaceId, campaignId };
}

describe("the exclusion preview", () => {
  it("gives every reason someone will not get the mail, with counts and addresses, and its figures equal what dispatch then does", async () => {
    const { campaignId } = await audienceOfEveryKind();
    const preview = await previewAudience(ctx, systemActor("test"), campaignId);
    const byReason = Object.fromEntries(preview.exclusions.map((exclusion) => [exclusion.reason, exclusion.sample]));
    expect(preview.recipients).toBe(2);
    expect(byReason).toEqual({
      not_subscribed: ["list-only@example.com"],
      pending_confirmation: ["pending@example.com"],
      unsubscribed: ["left-everything@example.com", "left-topic@example.com"],
      not_on_list: ["off-list@example.com"],
      suppressed_complaint: ["complained@example.com"],
      suppressed_bounce: ["bounced@example.com"],
      suppressed_address: ["blocked@example.com"],
      suppressed_domain: ["someone@blocked-domain.example"],
      not_verified: ["not-verified@example.com"],
      "missing_merge_tag:contact.first_name": ["no-first-name@example.com"],
      "missing_merge_tag:contact.plan": ["no-plan@example.com"],
    });

    await ctx.db.update(campaigns).set({ status: "sending" }).where(eq(campaigns.id, campaignId));
    const snapshot = await snapshotAudience(ctx, campaignId);
    let after: string | null = null;
    do
      after = (await sendNextBatch(ctx, getMailTransport(), { campaignId, size: 3, claimant: "preview-test", after }))
        .next;
    while (after);
    const sent = await ctx.db
      .select({ email: sends.email, state: sends.state, reason: sends.failureReason })
      .from(sends)
      .where(eq(sends.campaignId, campaignId));
    const count = (reason: string) => preview.exclusions.find((exclusion) => exclusion.reason === reason)?.count ?? 0;
    // The snapshot holds the recipients and whoever only the batch leaves out.
    expect(snapshot.recipients).toBe(
      preview.recipients +
        count("not_verified") +
        count("missing_merge_tag:contact.first_name") +
        count("missing_merge_tag:contact.plan"),
    );
    expect(
      sent
        .filter((send) => send.state === "accepted")
        .map((send) => send.email)
        .sort(),
    ).toEqual(["gets-it-1@example.com", "gets-it-2@example.com"]);
    const failed = Object.fromEntries(
      sent.filter((send) => send.state === "failed").map((send) => [send.email, send.reason]),
    );
    expect(failed).toEqual({
      "not-verified@example.com": "recipient_not_verified",
      "no-first-name@example.com": "missing_merge_tag:contact.first_name",
      "no-plan@example.com": "missing_merge_tag:contact.plan",
    });
  });

  it("over the plan's allowance: the allowance covers only the people no rule leaves out, the preview names who it does not cover, and dispatch cuts exactly them", async () => {
    const { workspaceId, campaignId } = await audienceOfEveryKind();
    // Five people reach the snapshot (two recipients, one not verified, two without a merge value); one send is left.
    await ctx.db
      .update(workspaceBilling)
      .set({ sendAllowance: 10, sendsUsed: 9 })
      .where(eq(workspaceBilling.workspaceId, workspaceId));
    const preview = await previewAudience(ctx, systemActor("test"), campaignId);
    const counts = Object.fromEntries(preview.exclusions.map((exclusion) => [exclusion.reason, exclusion.count]));
    // gets-it-2 was written after gets-it-1: the higher contact id is the one not covered.
    expect(preview.exclusions.find((exclusion) => exclusion.reason === "over_allowance")).toEqual({
      reason: "over_allowance",
      count: 1,
      sample: ["gets-it-2@example.com"],
    });
    expect(counts["missing_merge_tag:contact.first_name"]).toBe(1);
    expect(counts["missing_merge_tag:contact.plan"]).toBe(1);
    expect(counts.not_verified).toBe(1);
    expect(preview.recipients).toBe(1);

    await ctx.db.update(campaigns).set({ status: "sending" }).where(eq(campaigns.id, campaignId));
    await snapshotAudience(ctx, campaignId);
    let after: string | null = null;
    do
      after = (await sendNextBatch(ctx, getMailTransport(), { campaignId, size: 3, claimant: "preview-test", after }))
        .next;
    while (after);
    const sent = await ctx.db
      .select({ email: sends.email, state: sends.state, reason: sends.failureReason })
      .from(sends)
      .where(eq(sends.campaignId, campaignId));
    expect(sent.filter((send) => send.state === "accepted").map((send) => send.email)).toEqual([
      "gets-it-1@example.com",
    ]);
    expect(
      Object.fromEntries(sent.filter((send) => send.state === "failed").map((send) => [send.email, send.reason])),
    ).toEqual({
      "not-verified@example.com": "recipient_not_verified",
      "no-first-name@example.com": "missing_merge_tag:contact.first_name",
      "no-plan@example.com": "missing_merge_tag:contact.plan",
      "gets-it-2@example.com": "over_allowance",
    });
    expect(
      (await ctx.db.select().from(workspaceBilling).where(eq(workspaceBilling.workspaceId, workspaceId)))[0]!.sendsUsed,
    ).toBe(10);
  });

  it("a recipient left out by the sandbox uses no allowance: with 1,000 allowance and 1,982 recipients of whom one is verified, the verified one is sent", async () => {
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
    await ctx.db
      .update(workspaceBilling)
      .set({ sendAllowance: 1_000, sendsUsed: 0 })
      .where(eq(workspaceBilling.workspaceId, workspaceId));
    // The verified address is the newest contact (the owner added last), so the highest contact id.
    const tag = topicId.slice(-8);
    await ctx.db.execute(sql`insert into contacts (id, workspace_id, email)
      select 'ct_' || ${tag} || lpad(i::text, 18, '0'), ${workspaceId}, case when i = 1981 then 'owner@' || ${tag} || '.example' else 'p' || i || '@' || ${tag} || '.example' end
      from generate_series(0, 1981) i`);
    await ctx.db.execute(sql`insert into subscriptions (id, workspace_id, contact_id, topic_id, state, source)
      select 'sub_' || ${tag} || lpad(i::text, 18, '0'), ${workspaceId}, 'ct_' || ${tag} || lpad(i::text, 18, '0'), ${topicId}, 'subscribed', 'api' from generate_series(0, 1981) i`);
    await ctx.db
      .insert(verifiedAddresses)
      .values({ workspaceId, email: `owner@${tag}.example`, verifiedAt: ctx.clock.now() });
    const { campaignId } = await createCampaign(ctx, systemActor("test", workspaceId), {
      brandId,
      topicId,
      name: "First",
      subject: "Hi",
      html: "<p>Hi</p>",
    });

    const preview = await previewAudience(ctx, systemActor("test"), campaignId);
    expect(preview.recipients).toBe(1);
    expect(preview.exclusions.map(({ reason, count }) => ({ reason, count }))).toEqual([
      { reason: "not_verified", count: 1_981 },
    ]);

    await ctx.db.update(campaigns).set({ status: "sending" }).where(eq(campaigns.id, campaignId));
    expect(await snapshotAudience(ctx, campaignId)).toEqual({ status: "sending", recipients: 1_982 });
    let after: string | null = null;
    do
      after = (await sendNextBatch(ctx, getMailTransport(), { campaignId, size: 500, claimant: "preview-test", after }))
        .next;
    while (after);
    const byState = await ctx.db.execute<{ state: string; reason: string | null; n: number }>(
      sql`select state, failure_reason as reason, count(*)::int as n from sends where campaign_id = ${campaignId} group by 1, 2 order by 1`,
    );
    expect([...byState].map((row) => ({ ...row, n: Number(row.n) }))).toEqual([
      { state: "accepted", reason: null, n: 1 },
      { state: "failed", reason: "recipient_not_verified", n: 1_981 },
    ]);
    const [accepted] = await ctx.db
      .select({ email: sends.email })
      .from(sends)
      .where(and(eq(sends.campaignId, campaignId), eq(sends.state, "accepted")));
    expect(accepted!.email).toBe(`owner@${tag}.example`);
    expect(
      (await ctx.db.select().from(workspaceBilling).where(eq(workspaceBilling.workspaceId, workspaceId)))[0]!.sendsUsed,
    ).toBe(1);
  });

  it("a campaign of another workspace is not found", async () => {
    const { campaignId } = await audienceOfEveryKind();
    const other = await seedWorkspace(ctx);
    await expect(previewAudience(ctx, systemActor("test", other.workspaceId), campaignId)).rejects.toMatchObject({
      code: "campaign_not_found",
    });
  });
});

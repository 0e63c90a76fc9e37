import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { systemActor, userActor } from "@/lib/actor";
import { defineAttribute } from "@/lib/contacts/define-attribute";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { sends, users, workspaceBilling } from "@/lib/db/schema";
import { getMailTransport } from "@/lib/mail/get-mail-transport";
import { listMailbox } from "@/lib/mail/list-mailbox";
import { seedTopic, seedWorkspace, setBillingStage } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";
import { createUser } from "@/lib/users/create-user";

import { createCampaign } from "./save-campaign";
import { sendTestMail, testMailAddresses } from "./send-test-mail";

const { ctx } = testCtx();

describe("a campaign's test mail", () => {
  it("goes only to a member of the workspace or a verified address, marked as a test, filled in, and counted nowhere", async () => {
    const owner = `owner-${Date.now()}@example.com`;
    const { workspaceId, brandId, ownerUserId } = await seedWorkspace(ctx, { ownerEmail: owner });
    await createUser(ctx, { email: owner, password: "the owner has signed up" }); // a member counts once signed up
    const member = userActor(ownerUserId, workspaceId);
    const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
    await upsertContact(ctx, systemActor("test", workspaceId), { email: owner, firstName: "Olive" });
    const { campaignId } = await createCampaign(ctx, member, {
      brandId,
      topicId,
      name: "Draft",
      subject: "Hi {{contact.first_name}}",
      html: "<p>Hello</p>",
    });

    await expect(
      sendTestMail(ctx, member, getMailTransport(), campaignId, "stranger@example.com"),
    ).rejects.toMatchObject({ code: "validation_failed", param: "to" });
    await sendTestMail(ctx, member, getMailTransport(), campaignId, owner.toUpperCase());
    const [mail] = await listMailbox(ctx, systemActor("test", workspaceId), { to: owner });
    expect(mail?.subject).toBe("[Test] Hi Olive");
    expect(await ctx.db.select().from(sends).where(eq(sends.campaignId, campaignId))).toEqual([]);
  });

  it("an address without a value for a tag the campaign uses gets the test all the same, that value filled with a sample one, and the answer names the tag and the value", async () => {
    const owner = `samples-${Date.now()}@example.com`;
    const { workspaceId, brandId, ownerUserId } = await seedWorkspace(ctx, { ownerEmail: owner });
    await createUser(ctx, { email: owner, password: "the owner has signed up" });
    const member = userActor(ownerUserId, workspaceId);
    await defineAttribute(ctx, systemActor("test", workspaceId), { key: "plan", type: "string" });
    const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
    await upsertContact(ctx, systemActor("test", workspaceId), { email: owner, lastName: "Owner" });
    const { campaignId } = await createCampaign(ctx, member, {
      brandId,
      topicId,
      name: "Draft",
      subject: "Hi {{contact.first_name}}",
      html: "<p>{{contact.last_name}}, your plan: {{contact.plan}}</p>",
    });

    const answer = await sendTestMail(ctx, member, getMailTransport(), campaignId, owner);
    expect(answer).toEqual({
      to: owner,
      samples: [
        { tag: "contact.first_name", value: "Ada" },
        { tag: "contact.plan", value: "Sample plan" },
      ],
    });
    const [mail] = await listMailbox(ctx, systemActor("test", workspaceId), { to: owner });
    expect(mail?.subject).toBe("[Test] Hi Ada");
    expect(mail?.html).toContain("Owner, your plan: Sample plan");
  });

  it("a campaign of another workspace is not found", async () => {
    const a = await seedWorkspace(ctx);
    const b = await seedWorkspace(ctx);
    const topicId = await seedTopic(ctx, b.workspaceId, b.brandId);
    const { campaignId } = await createCampaign(ctx, systemActor("test", b.workspaceId), {
      brandId: b.brandId,
      topicId,
      name: "Theirs",
      subject: "Hi",
      html: "<p>Hi</p>",
    });
    const memberOfA = userActor(a.ownerUserId, a.workspaceId);
    await createUser(ctx, {
      email: (await ctx.db.select({ email: users.email }).from(users).where(eq(users.id, a.ownerUserId)))[0]!.email,
      password: "owner of a signed up",
    });
    const [ownerOfA] = await testMailAddresses(ctx, memberOfA);
    await expect(sendTestMail(ctx, memberOfA, getMailTransport(), campaignId, ownerOfA!)).rejects.toMatchObject({
      code: "campaign_not_found",
    });
  });

  it("no test goes out while billing pauses the workspace's sending (an invoice overdue, a trial ended); it is refused with billing_paused", async () => {
    const owner = `paused-${Date.now()}@example.com`;
    const { workspaceId, brandId, ownerUserId } = await seedWorkspace(ctx, { ownerEmail: owner });
    await createUser(ctx, { email: owner, password: "the owner has signed up" });
    const member = userActor(ownerUserId, workspaceId);
    const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
    const { campaignId } = await createCampaign(ctx, member, {
      brandId,
      topicId,
      name: "Draft",
      subject: "Hi",
      html: "<p>Hello</p>",
    });

    await setBillingStage(ctx, workspaceId, "overdue");
    await expect(sendTestMail(ctx, member, getMailTransport(), campaignId, owner)).rejects.toMatchObject({
      code: "billing_paused",
    });
    await ctx.db
      .update(workspaceBilling)
      .set({ stage: "trial", trialEndsAt: new Date(ctx.clock.now().getTime() - 1000) })
      .where(eq(workspaceBilling.workspaceId, workspaceId));
    await expect(sendTestMail(ctx, member, getMailTransport(), campaignId, owner)).rejects.toMatchObject({
      code: "billing_paused",
    });
    expect(await listMailbox(ctx, systemActor("test", workspaceId), { to: owner })).toEqual([]);

    await setBillingStage(ctx, workspaceId, "active");
    await sendTestMail(ctx, member, getMailTransport(), campaignId, owner);
    expect(await listMailbox(ctx, systemActor("test", workspaceId), { to: owner })).toHaveLength(1);
  });
});

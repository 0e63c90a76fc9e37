import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { functions } from "@/inngest";
import { inngest, routeEmbeddedEvents } from "@/inngest/client";
import { createEmbeddedExecutor } from "@/inngest/embedded/executor";
import { setWorkflowCtx } from "@/inngest/workflow-ctx";
import { systemActor } from "@/lib/actor";
import { cancelCampaign, pauseCampaign, sendCampaignNow } from "@/lib/campaigns/campaign-actions";
import { recordCampaignEvent } from "@/lib/campaigns/campaign-events";
import { createCampaign } from "@/lib/campaigns/save-campaign";
import { unsubscribe } from "@/lib/consent/unsubscribe";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { campaigns, events, sends } from "@/lib/db/schema";
import { recordProviderEvent } from "@/lib/deliverability/record-provider-event";
import { overrideEnvForTests, reloadEnv } from "@/lib/env";
import { EVENT_TYPES } from "@/lib/events/event-types";
import { clearForSending } from "@/lib/testing/clear-for-sending";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";
import { startWebhookReceiver, type ReceivedWebhook } from "@/lib/testing/webhook-receiver";
import { recordClick, recordOpen } from "@/lib/tracking/record-engagement";

import { createEndpoint } from "./endpoints";
import { webhookBody } from "./event-schemas";

// The payload table of the spec's Events section, field for field.
const EMAIL_BASE = ["send_id", "campaign_id", "campaign_name", "contact_id", "email", "occurred_at"];
const CAMPAIGN_BASE = [
  "campaign_id",
  "campaign_name",
  "subject",
  "brand_id",
  "status",
  "recipient_count",
  "occurred_at",
];
const SPEC_FIELDS: Record<(typeof EVENT_TYPES)[number], string[]> = {
  "contact.subscribed": ["contact_id", "email", "topic_id", "topic_name", "brand_id", "occurred_at", "source"],
  "contact.unsubscribed": [
    "contact_id",
    "email",
    "occurred_at",
    "scope",
    "topic_id",
    "topic_name",
    "brand_id",
    "campaign_id",
  ],
  "email.delivered": EMAIL_BASE,
  "email.bounced": [...EMAIL_BASE, "bounce_type", "reason", "suppressed"],
  "email.complained": [...EMAIL_BASE, "complaint_type", "suppressed"],
  "email.failed": [...EMAIL_BASE, "reason"],
  "email.opened": [...EMAIL_BASE, "country"],
  "email.clicked": [...EMAIL_BASE, "url", "country", "device_type", "client"],
  "campaign.sending": CAMPAIGN_BASE,
  "campaign.sent": [...CAMPAIGN_BASE, "delivered", "bounced", "failed", "skipped"],
  "campaign.paused": [...CAMPAIGN_BASE, "pause_reason"],
  "campaign.cancelled": CAMPAIGN_BASE,
};
const CAMPAIGN_STATUSES = ["draft", "scheduled", "sending", "paused", "sent", "cancelled"];

const { ctx, clock } = testCtx(new Date(Date.now() + 60 * 60_000));
const executor = createEmbeddedExecutor({ client: inngest, functions, workers: 4 });
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
const byType = new Map<string, ReceivedWebhook["body"][]>();
const ids: Record<string, string> = {};

/** One workspace goes through every event: four subscribers, a sent campaign with every outcome, a paused and cancelled one. */
beforeAll(async () => {
  overrideEnvForTests({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "1" });
  setWorkflowCtx(ctx);
  routeEmbeddedEvents((sent) => executor.enqueue(ctx, sent));
  receiver = await startWebhookReceiver();
  const { workspaceId, brandId } = await seedWorkspace(ctx);
  await clearForSending(ctx, workspaceId);
  const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
  const actor = systemActor("test", workspaceId);
  await createEndpoint(ctx, actor, { url: receiver.url, eventTypes: [] });
  for (const [name, firstName] of [
    ["alice", "Alice"],
    ["bob", "Bob"],
    ["carol", "Carol"],
    ["dave", undefined],
  ] as const) {
    ids[name] = (
      await upsertContact(ctx, actor, { email: `${name}@example.com`, firstName, topicIds: [topicId] })
    ).contact.id;
  }
  const content = {
    brandId,
    topicId,
    subject: "Hello {{contact.first_name}}",
    html: '<p>Hi <a href="https://example.com/offer">offer</a></p>',
  };
  const { campaignId } = await createCampaign(ctx, actor, { ...content, name: "Launch" });
  ids.campaign = campaignId;
  await sendCampaignNow(ctx, actor, campaignId);
  await executor.runDue(ctx);
  const sendOf = async (name: string) =>
    (
      await ctx.db
        .select()
        .from(sends)
        .where(and(eq(sends.campaignId, campaignId), eq(sends.contactId, ids[name]!)))
    )[0]!.id;
  const at = clock.now();
  await recordProviderEvent(ctx, { sendId: await sendOf("alice"), type: "delivered", occurredAt: at });
  await recordProviderEvent(ctx, {
    sendId: await sendOf("bob"),
    type: "bounced",
    bounceType: "permanent",
    reason: "550 no such user",
    occurredAt: at,
  });
  await recordProviderEvent(ctx, {
    sendId: await sendOf("carol"),
    type: "complained",
    complaintType: "abuse",
    occurredAt: at,
  });
  await recordOpen(ctx, await sendOf("alice"), { country: "DE" });
  await recordClick(ctx, await sendOf("alice"), {
    url: "https://example.com/offer",
    country: "DE",
    deviceType: "desktop",
    client: "Thunderbird",
  });
  await unsubscribe(ctx, { contactId: ids.alice!, scope: "topic", topicId, campaignId, sendId: await sendOf("alice") });
  const second = await createCampaign(ctx, actor, { ...content, subject: "Second", name: "Halted" });
  await sendCampaignNow(ctx, actor, second.campaignId);
  await pauseCampaign(ctx, actor, second.campaignId);
  await cancelCampaign(ctx, actor, second.campaignId);
  await executor.runDue(ctx);
  for (const { body } of receiver.received) byType.set(body.type, [...(byType.get(body.type) ?? []), body]);
});
afterAll(async () => {
  reloadEnv();
  setWorkflowCtx(undefined);
  await receiver.close();
});

describe("webhook payloads", () => {
  it.each(EVENT_TYPES.map((type) => [type]))("%s carries exactly the payload fields of the spec", (type) => {
    const delivered = byType.get(type) ?? [];
    expect(delivered.length).toBeGreaterThan(0);
    for (const body of delivered) expect(Object.keys(body.data).sort()).toEqual([...SPEC_FIELDS[type]].sort());
  });

  it.each(EVENT_TYPES.map((type) => [type]))(
    "%s as delivered matches its schema in the OpenAPI document's webhooks",
    (type) => {
      for (const body of byType.get(type) ?? []) {
        const checked = webhookBody(type).safeParse(body);
        expect(checked.error?.issues ?? []).toEqual([]);
      }
    },
  );

  it("email.* events name the send, the campaign and the recipient; occurred_at is when it happened at the provider", () => {
    const [delivered] = byType.get("email.delivered")!;
    expect(delivered!.data).toMatchObject({
      send_id: expect.stringMatching(/^snd_/),
      campaign_id: ids.campaign,
      campaign_name: "Launch",
      contact_id: ids.alice,
      email: "alice@example.com",
    });
    expect(byType.get("email.bounced")![0]!.data).toMatchObject({
      bounce_type: "permanent",
      reason: "550 no such user",
      suppressed: true,
    });
    expect(byType.get("email.complained")![0]!.data).toMatchObject({ complaint_type: "abuse", suppressed: true });
    expect(byType.get("email.failed")![0]!.data).toMatchObject({
      contact_id: ids.dave,
      reason: "missing_merge_tag:contact.first_name",
    });
    expect(byType.get("email.opened")![0]!.data).toMatchObject({ country: "DE" });
    expect(byType.get("email.clicked")![0]!.data).toMatchObject({
      url: "https://example.com/offer",
      country: "DE",
      device_type: "desktop",
      client: "Thunderbird",
    });
  });

  it("contact events carry source and scope as the spec lists them", () => {
    expect(byType.get("contact.subscribed")!.map((body) => body.data.source)).toEqual(["api", "api", "api", "api"]);
    expect(byType.get("contact.unsubscribed")![0]!.data).toMatchObject({
      contact_id: ids.alice,
      scope: "topic",
      campaign_id: ids.campaign,
      topic_id: expect.stringMatching(/^tp_/),
    });
  });

  it("campaign events report one of the six statuses and the recipient count the send was set at; campaign.sent adds its figures", () => {
    for (const type of ["campaign.sending", "campaign.sent", "campaign.paused", "campaign.cancelled"]) {
      for (const body of byType.get(type)!) expect(CAMPAIGN_STATUSES).toContain(body.data.status);
    }
    const sent = byType.get("campaign.sent")![0]!.data;
    expect(sent).toMatchObject({
      campaign_id: ids.campaign,
      status: "sent",
      recipient_count: 4,
      failed: 0,
      skipped: 1,
    });
    expect(byType.get("campaign.paused")![0]!.data).toMatchObject({ campaign_name: "Halted", status: "paused" });
    expect(byType.get("campaign.cancelled")![0]!.data).toMatchObject({ campaign_name: "Halted", status: "cancelled" });
  });

  it("a campaign status outside the six is reported as null rather than guessed", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const [campaign] = await ctx.db.select().from(campaigns).where(eq(campaigns.id, ids.campaign!));
    await recordCampaignEvent(ctx, { ...campaign!, workspaceId, status: "archived" as never }, "campaign.sent");
    const [event] = await ctx.db.select().from(events).where(eq(events.workspaceId, workspaceId));
    expect(event!.data).toMatchObject({ campaign_id: ids.campaign, status: null });
  });
});

import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { events, sends, suppressions } from "@/lib/db/schema";
import { seedAcceptedSend } from "@/lib/testing/campaign-fixture";
import { testCtx } from "@/lib/testing/test-context";

import { recordProviderEvent } from "./record-provider-event";

const { ctx, clock } = testCtx();
const eventsOf = async (workspaceId: string, type: string) =>
  ctx.db
    .select()
    .from(events)
    .where(and(eq(events.workspaceId, workspaceId), eq(events.type, type)));

describe("provider events on campaign sends", () => {
  it("email.delivered: the provider accepted the message; occurred_at is when it happened at the provider", async () => {
    const { workspaceId, send, campaignId, contactId } = await seedAcceptedSend(ctx, "d@example.com");
    const at = new Date("2026-01-05T09:00:00.123Z");
    expect(
      await recordProviderEvent(ctx, { type: "delivered", providerMessageId: send.providerMessageId!, occurredAt: at }),
    ).toMatchObject({ matched: true, suppressed: false });
    const [event] = await eventsOf(workspaceId, "email.delivered");
    expect(event!.data).toEqual({
      send_id: send.id,
      campaign_id: campaignId,
      campaign_name: "Launch",
      contact_id: contactId,
      email: "d@example.com",
      occurred_at: at.toISOString(),
    });
    // Reported twice, recorded once.
    await recordProviderEvent(ctx, { type: "delivered", providerMessageId: send.providerMessageId!, occurredAt: at });
    expect(await eventsOf(workspaceId, "email.delivered")).toHaveLength(1);
    expect((await ctx.db.select().from(sends).where(eq(sends.id, send.id)))[0]!.deliveredAt).toEqual(at);
  });

  it("email.bounced: bounce_type, reason and suppressed (only a permanent bounce suppresses)", async () => {
    const { workspaceId, send } = await seedAcceptedSend(ctx, "b@example.com");
    await recordProviderEvent(ctx, {
      type: "bounced",
      bounceType: "transient",
      reason: "mailbox full",
      sendId: send.id,
      occurredAt: clock.now(),
    });
    await recordProviderEvent(ctx, {
      type: "bounced",
      bounceType: "permanent",
      reason: "no such user",
      sendId: send.id,
      occurredAt: clock.now(),
    });
    const bounced = (await eventsOf(workspaceId, "email.bounced")).map((e) => e.data);
    expect(bounced).toEqual([
      expect.objectContaining({ bounce_type: "transient", reason: "mailbox full", suppressed: false }),
      expect.objectContaining({ bounce_type: "permanent", reason: "no such user", suppressed: true }),
    ]);
    expect(
      await ctx.db
        .select({ reason: suppressions.reason })
        .from(suppressions)
        .where(eq(suppressions.workspaceId, workspaceId)),
    ).toEqual([{ reason: "bounce" }]);
  });

  it("a send's bounce is recorded once: a weaker bounce reported after a permanent one changes nothing", async () => {
    const { workspaceId, send } = await seedAcceptedSend(ctx, "p@example.com");
    await recordProviderEvent(ctx, {
      type: "bounced",
      bounceType: "permanent",
      reason: "no such user",
      sendId: send.id,
      occurredAt: clock.now(),
    });
    await recordProviderEvent(ctx, {
      type: "bounced",
      bounceType: "transient",
      reason: "try later",
      sendId: send.id,
      occurredAt: clock.now(),
    });
    await recordProviderEvent(ctx, {
      type: "bounced",
      bounceType: "undetermined",
      sendId: send.id,
      occurredAt: clock.now(),
    });
    expect((await eventsOf(workspaceId, "email.bounced")).map((e) => e.data.bounce_type)).toEqual(["permanent"]);
    expect((await ctx.db.select().from(sends).where(eq(sends.id, send.id)))[0]!.bounceType).toBe("permanent");
  });

  it("email.complained: complaint_type and suppressed always true", async () => {
    const { workspaceId, send } = await seedAcceptedSend(ctx, "c@example.com");
    await recordProviderEvent(ctx, {
      type: "complained",
      complaintType: "abuse",
      sendId: send.id,
      occurredAt: clock.now(),
    });
    expect((await eventsOf(workspaceId, "email.complained"))[0]!.data).toMatchObject({
      complaint_type: "abuse",
      suppressed: true,
      send_id: send.id,
    });
  });

  it("a Message-ID quoted by a bounce mail is never matched as it stands: a report stored before Message-IDs were signed, quoting the old form, applies nothing", async () => {
    const { workspaceId, send } = await seedAcceptedSend(ctx, "old@example.com");
    const oldForm = `<${send.id}@brand.example>`;
    await ctx.db.update(sends).set({ providerMessageId: oldForm }).where(eq(sends.id, send.id));
    expect(
      await recordProviderEvent(ctx, {
        type: "complained",
        complaintType: "abuse",
        providerMessageId: oldForm,
        recipient: "old@example.com",
        occurredAt: clock.now(),
      }),
    ).toEqual({
      matched: false,
      suppressed: false,
    });
    expect(
      await recordProviderEvent(ctx, { type: "delivered", providerMessageId: oldForm, occurredAt: clock.now() }),
    ).toEqual({ matched: false, suppressed: false });
    expect(await ctx.db.select().from(suppressions).where(eq(suppressions.workspaceId, workspaceId))).toEqual([]);
    expect(await eventsOf(workspaceId, "email.complained")).toEqual([]);
    expect(await eventsOf(workspaceId, "email.delivered")).toEqual([]);
  });

  it("an event for mail that is not a campaign send matches nothing", async () => {
    expect(
      await recordProviderEvent(ctx, { type: "delivered", providerMessageId: "re_unknown", occurredAt: clock.now() }),
    ).toEqual({ matched: false, suppressed: false });
  });
});

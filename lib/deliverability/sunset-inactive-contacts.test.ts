import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { GET as openPixel } from "@/app/(public)/t/o/[token]/route";
import { systemActor } from "@/lib/actor";
import { assertReachesSomeone } from "@/lib/campaigns/assert-reaches-someone";
import { countNotSent } from "@/lib/campaigns/count-not-sent";
import { listNotSent } from "@/lib/campaigns/list-not-sent";
import { previewAudience } from "@/lib/campaigns/preview-audience";
import { createCampaign } from "@/lib/campaigns/save-campaign";
import { sendNextBatch } from "@/lib/campaigns/send-batch";
import { snapshotAudience } from "@/lib/campaigns/snapshot-audience";
import { getContactDetailsOrThrow } from "@/lib/contacts/get-contact-details";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { campaigns, contactEngagement, contacts, events, sends, subscriptions, suppressions } from "@/lib/db/schema";
import { getMailTransport } from "@/lib/mail/get-mail-transport";
import { clearForSending } from "@/lib/testing/clear-for-sending";
import { seedTopic, seedWorkspace, setSendAllowance } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";
import { machineClick, machineLabel, machineOpen, SCANNER_WINDOW_MS } from "@/lib/tracking/machine-engagement";
import { recordClick, recordOpen } from "@/lib/tracking/record-engagement";
import { openPixelUrl } from "@/lib/tracking/tracking-links";

import { sunsetSettingsSchema } from "./sunset-schemas";
import { getSunsetSettings, updateSunsetSettings } from "./sunset-settings";

const { ctx, clock } = testCtx();

const IPHONE_MAIL =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148";
const DESKTOP =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
const PERSON = { userAgent: IPHONE_MAIL, ip: "203.0.113.7" };
const HOUR = 3_600_000;

/** A workspace out of the sandbox whose topic has these subscribers. */
async function readers(...emails: string[]) {
  const { workspaceId, brandId } = await seedWorkspace(ctx);
  await clearForSending(ctx, workspaceId);
  // A paid plan: these tests walk months, past the trial.
  await setSendAllowance(ctx, workspaceId, 10_000);
  const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
  const actor = systemActor("test", workspaceId);
  const join = async (email: string) =>
    (await upsertContact(ctx, actor, { email, firstName: "R", topicIds: [topicId] })).contact.id;
  const ids: Record<string, string> = {};
  for (const email of emails) ids[email] = await join(email);
  return { workspaceId, brandId, topicId, actor, ids, join };
}
type Readers = Awaited<ReturnType<typeof readers>>;

async function draft(w: Readers, includeInactive = false) {
  const { campaignId } = await createCampaign(ctx, w.actor, {
    brandId: w.brandId,
    topicId: w.topicId,
    name: "News",
    subject: "News",
    html: "<p>News</p>",
    includeInactive,
  });
  return campaignId;
}

/** Dispatches a campaign to the topic, an hour after the last; its sends by address. */
async function dispatch(w: Readers, campaignId?: string) {
  clock.advance(HOUR);
  const id = campaignId ?? (await draft(w));
  await ctx.db.update(campaigns).set({ status: "sending" }).where(eq(campaigns.id, id));
  expect((await snapshotAudience(ctx, id)).status).toBe("sending");
  let after: string | null = null;
  do
    after = (await sendNextBatch(ctx, getMailTransport(), { campaignId: id, size: 50, claimant: "sunset", after }))
      .next;
  while (after);
  const rows = await ctx.db.select().from(sends).where(eq(sends.campaignId, id));
  expect(rows.length).toBeGreaterThan(0);
  return { campaignId: id, sends: Object.fromEntries(rows.map((row) => [row.email, row])) };
}

const leftOut = (sent: Awaited<ReturnType<typeof dispatch>>) =>
  Object.values(sent.sends)
    .filter((send) => send.state === "failed")
    .map((send) => `${send.email}:${send.failureReason}`)
    .sort();

describe("sunset of inactive contacts", () => {
  it("the setting is off by default, and turned on needs a number of campaigns or of days", async () => {
    const w = await readers();
    expect(await getSunsetSettings(ctx, w.actor)).toEqual({ enabled: false, afterCampaigns: null, afterDays: null });
    expect(sunsetSettingsSchema.safeParse({ enabled: true, afterCampaigns: "", afterDays: "" }).success).toBe(false);
    expect(sunsetSettingsSchema.safeParse({ enabled: false, afterCampaigns: "", afterDays: "" }).success).toBe(true);
    await expect(
      updateSunsetSettings(ctx, w.actor, { enabled: true, afterCampaigns: 0, afterDays: null }),
    ).rejects.toMatchObject({ code: "validation_failed", param: "afterCampaigns" });
  });

  it("with the sunset off nobody is left out, however long they have not opened", async () => {
    const w = await readers("a@example.com", "b@example.com");
    for (let i = 0; i < 3; i++) await dispatch(w);
    clock.advance(400 * 24 * HOUR);
    expect(leftOut(await dispatch(w))).toEqual([]);
  });

  it("an inactive contact is left out of campaigns with the reason inactive, in the not-sent list and count; nobody is unsubscribed", async () => {
    const w = await readers("reader@example.com", "quiet@example.com", "silent@example.com");
    await updateSunsetSettings(ctx, w.actor, { enabled: true, afterCampaigns: 2, afterDays: null });
    const first = await dispatch(w);
    await recordOpen(ctx, first.sends["reader@example.com"]!.id, { country: null, request: PERSON });
    const second = await dispatch(w);
    expect(leftOut(second)).toEqual([]);
    const third = await dispatch(w);
    expect(leftOut(third)).toEqual(["quiet@example.com:inactive", "silent@example.com:inactive"]);
    expect(third.sends["reader@example.com"]!.state).toBe("accepted");
    expect(await countNotSent(ctx, third.campaignId)).toEqual([{ reason: "inactive", count: 2 }]);
    const page = await listNotSent(ctx, w.actor, third.campaignId, 1);
    expect(page.rows).toEqual([
      { email: "quiet@example.com", reason: "inactive" },
      { email: "silent@example.com", reason: "inactive" },
    ]);
    // Left out, not unsubscribed: subscriptions, opt-outs and suppressions are as they were.
    const states = await ctx.db
      .select({ state: subscriptions.state })
      .from(subscriptions)
      .where(eq(subscriptions.topicId, w.topicId));
    expect(states.map((s) => s.state)).toEqual(["subscribed", "subscribed", "subscribed"]);
    const optedOut = await ctx.db
      .select({ at: contacts.optedOutAt })
      .from(contacts)
      .where(eq(contacts.workspaceId, w.workspaceId));
    expect(optedOut.every((c) => c.at === null)).toBe(true);
    expect(await ctx.db.select().from(suppressions).where(eq(suppressions.workspaceId, w.workspaceId))).toEqual([]);
  });

  it("inactive after M days: the first campaign since their last human open or click reached them that long ago", async () => {
    const w = await readers("a@example.com");
    await updateSunsetSettings(ctx, w.actor, { enabled: true, afterCampaigns: null, afterDays: 30 });
    await dispatch(w);
    clock.advance(29 * 24 * HOUR - 2 * HOUR);
    expect(leftOut(await dispatch(w))).toEqual([]);
    clock.advance(2 * 24 * HOUR);
    expect(leftOut(await dispatch(w))).toEqual(["a@example.com:inactive"]);
  });

  it("machine opens (Apple Mail Privacy Protection) and link-scanner clicks are recorded and counted, but are not engagement", async () => {
    const w = await readers("apple@example.com", "scanned@example.com");
    await updateSunsetSettings(ctx, w.actor, { enabled: true, afterCampaigns: 1, afterDays: null });
    const first = await dispatch(w);
    const apple = first.sends["apple@example.com"]!;
    const scanned = first.sends["scanned@example.com"]!;
    await recordOpen(ctx, apple.id, { country: null, request: { userAgent: "Mozilla/5.0", ip: "17.58.101.9" } });
    await recordClick(ctx, scanned.id, {
      url: "https://shop.example/",
      country: null,
      deviceType: "desktop",
      client: null,
      request: { userAgent: "Barracuda Sentinel (EE)", ip: null },
    });
    // Recorded as before: the send's first open and click, and the events, marked as a machine's.
    const stamped = await ctx.db
      .select()
      .from(sends)
      .where(inArray(sends.id, [apple.id, scanned.id]));
    expect(stamped.find((s) => s.id === apple.id)!.openedAt).not.toBeNull();
    expect(stamped.find((s) => s.id === scanned.id)!.clickedAt).not.toBeNull();
    const recorded = await ctx.db
      .select({ type: events.type, machine: events.machine, data: events.data })
      .from(events)
      .where(and(eq(events.workspaceId, w.workspaceId), inArray(events.type, ["email.opened", "email.clicked"])));
    expect(recorded.map((e) => [e.type, e.machine]).sort()).toEqual([
      ["email.clicked", "link_scanner"],
      ["email.opened", "apple_privacy_proxy"],
    ]);
    expect(recorded.every((e) => !("machine" in e.data))).toBe(true);
    expect(leftOut(await dispatch(w))).toEqual(["apple@example.com:inactive", "scanned@example.com:inactive"]);
  });

  it("the open pixel marks an Apple Mail Privacy Protection fetch as a machine's and leaves the contact unengaged", async () => {
    const w = await readers("pixel@example.com");
    const sent = await dispatch(w);
    const send = sent.sends["pixel@example.com"]!;
    const url = openPixelUrl(send.id);
    await openPixel(new Request(url, { headers: { "user-agent": "Mozilla/5.0" } }), {
      params: Promise.resolve({ token: url.split("/").at(-1)! }),
    });
    const [event] = await ctx.db
      .select({ machine: events.machine })
      .from(events)
      .where(and(eq(events.workspaceId, w.workspaceId), eq(events.type, "email.opened")));
    expect(event!.machine).toBe("apple_privacy_proxy");
    const [engagement] = await ctx.db
      .select()
      .from(contactEngagement)
      .where(eq(contactEngagement.contactId, w.ids["pixel@example.com"]!));
    expect(engagement).toMatchObject({ lastEngagedAt: null, campaignsSinceEngaged: 1 });
    // The contact's timeline says whose open it was.
    const { timeline } = await getContactDetailsOrThrow(ctx, w.actor, w.ids["pixel@example.com"]!);
    const opened = timeline.find((e) => e.type === "email.opened")!;
    expect(machineLabel(opened.machine!)).toBe("machine open: Apple Mail Privacy Protection");
  });

  it("what counts as a machine: Apple's proxy by its bare user agent or its network, scanners by name or by clicking within seconds, other bots; mail image proxies are people", () => {
    expect(machineOpen({ userAgent: "Mozilla/5.0", ip: null })).toBe("apple_privacy_proxy");
    expect(machineOpen({ userAgent: IPHONE_MAIL, ip: "17.1.2.3" })).toBe("apple_privacy_proxy");
    expect(machineOpen({ userAgent: IPHONE_MAIL, ip: "203.0.113.7" })).toBeNull();
    expect(machineOpen({ userAgent: "Mozilla/5.0 (via ggpht.com GoogleImageProxy)", ip: null })).toBeNull();
    expect(machineOpen({ userAgent: "python-requests/2.31", ip: null })).toBe("bot");
    const now = new Date("2026-01-05T10:00:00Z");
    const sentAt = new Date(now.getTime() - SCANNER_WINDOW_MS - 1);
    expect(machineClick({ userAgent: "Mozilla/5.0 (compatible; Mimecast/1.0)", ip: null }, { sentAt, now })).toBe(
      "link_scanner",
    );
    expect(machineClick({ userAgent: "Proofpoint URL Defense", ip: null }, { sentAt, now })).toBe("link_scanner");
    expect(machineClick({ userAgent: DESKTOP, ip: null }, { sentAt: new Date(now.getTime() - 3_000), now })).toBe(
      "link_scanner",
    );
    expect(machineClick({ userAgent: "curl/8.0", ip: null }, { sentAt, now })).toBe("bot");
    expect(machineClick({ userAgent: DESKTOP, ip: null }, { sentAt, now })).toBeNull();
  });

  it("a human open or click re-activates an inactive contact", async () => {
    const w = await readers("back@example.com", "clicker@example.com");
    await updateSunsetSettings(ctx, w.actor, { enabled: true, afterCampaigns: 1, afterDays: null });
    const first = await dispatch(w);
    const second = await dispatch(w);
    expect(leftOut(second)).toEqual(["back@example.com:inactive", "clicker@example.com:inactive"]);
    // Late, on the first campaign's mail: a person this time.
    await recordOpen(ctx, first.sends["back@example.com"]!.id, { country: null, request: PERSON });
    clock.advance(SCANNER_WINDOW_MS);
    await recordClick(ctx, first.sends["clicker@example.com"]!.id, {
      url: "https://shop.example/",
      country: null,
      deviceType: "desktop",
      client: "Chrome",
      request: { userAgent: DESKTOP, ip: "198.51.100.4" },
    });
    const third = await dispatch(w);
    expect(leftOut(third)).toEqual([]);
  });

  it("a campaign can re-include inactive contacts", async () => {
    const w = await readers("a@example.com", "b@example.com");
    await updateSunsetSettings(ctx, w.actor, { enabled: true, afterCampaigns: 1, afterDays: null });
    await dispatch(w);
    const campaignId = await draft(w, true);
    expect((await previewAudience(ctx, w.actor, campaignId)).exclusions).toEqual([]);
    expect(leftOut(await dispatch(w, campaignId))).toEqual([]);
  });

  it("new contacts are not inactive: a contact no campaign has reached yet gets the next one", async () => {
    const w = await readers("old@example.com");
    await updateSunsetSettings(ctx, w.actor, { enabled: true, afterCampaigns: 1, afterDays: 1 });
    await dispatch(w);
    clock.advance(10 * 24 * HOUR);
    await w.join("new@example.com");
    const sent = await dispatch(w);
    expect(leftOut(sent)).toEqual(["old@example.com:inactive"]);
    expect(sent.sends["new@example.com"]!.state).toBe("accepted");
  });

  it("the exclusion preview shows how many are inactive; a campaign only they would get reaches nobody and says what to do", async () => {
    const w = await readers("a@example.com", "b@example.com", "c@example.com");
    await updateSunsetSettings(ctx, w.actor, { enabled: true, afterCampaigns: 1, afterDays: null });
    const first = await dispatch(w);
    await recordClick(ctx, first.sends["a@example.com"]!.id, {
      url: "https://shop.example/",
      country: null,
      deviceType: "desktop",
      client: "Chrome",
      request: { userAgent: DESKTOP, ip: null },
    });
    // That click came the moment the mail left: a scanner's, so a@example.com is no more engaged than the others.
    const campaignId = await draft(w);
    const preview = await previewAudience(ctx, w.actor, campaignId);
    expect(preview.recipients).toBe(0);
    expect(preview.exclusions).toEqual([
      { reason: "inactive", count: 3, sample: ["a@example.com", "b@example.com", "c@example.com"] },
    ]);
    const [campaign] = await ctx.db.select().from(campaigns).where(eq(campaigns.id, campaignId));
    await expect(assertReachesSomeone(ctx, campaign!)).rejects.toMatchObject({
      code: "no_recipients",
      message: expect.stringContaining("Include inactive contacts"),
    });
    await recordOpen(ctx, first.sends["b@example.com"]!.id, { country: null, request: PERSON });
    const after = await previewAudience(ctx, w.actor, campaignId);
    expect(after.recipients).toBe(1);
    expect(after.exclusions).toEqual([{ reason: "inactive", count: 2, sample: ["a@example.com", "c@example.com"] }]);
  });
});

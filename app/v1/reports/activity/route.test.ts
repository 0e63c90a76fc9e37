import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { createBrand } from "@/lib/brands/create-brand";
import { systemClock } from "@/lib/clock";
import { unsubscribe } from "@/lib/consent/unsubscribe";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { overrideEnvForTests, parseEnv, reloadEnv } from "@/lib/env";
import { foldEngagement } from "@/lib/reports/fold-engagement";
import { pruneExpired } from "@/lib/retention/prune-expired";
import { apiClient } from "@/lib/testing/api-client";
import { seedKey, seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { seedSentCampaign } from "@/lib/testing/report-fixture";
import { testCtx } from "@/lib/testing/test-context";
import { recordClick, recordOpen } from "@/lib/tracking/record-engagement";

const { ctx, clock } = testCtx();

async function workspace() {
  const { workspaceId, brandId } = await seedWorkspace(ctx);
  return { workspaceId, brandId, api: apiClient((await seedKey(ctx, workspaceId)).key) };
}

/** A contact created at each of these instants. */
async function contactsAddedAt(workspaceId: string, instants: string[]) {
  for (const [i, at] of instants.entries()) {
    clock.set(new Date(at));
    await upsertContact(ctx, systemActor("test", workspaceId), { email: `c${i}-${at.replace(/\W/g, "")}@example.com` });
  }
}

const zeros = { contacts_added: 0, unsubscribes: 0, campaigns_sent: 0, opens: 0, clicks: 0 };

describe("GET /v1/reports/activity", () => {
  it("a weekly series whose from falls mid-week starts on that week's Monday; first and last buckets are partial and count only the window", async () => {
    const { workspaceId, api } = await workspace();
    // Wed 7th is before `from`; Thu 8th, Mon 12th and Sun 18th are inside; Mon 19th is `to`, exclusive.
    await contactsAddedAt(workspaceId, [
      "2026-01-07T12:00:00.000Z",
      "2026-01-08T00:00:00.000Z",
      "2026-01-12T08:00:00.000Z",
      "2026-01-18T23:59:59.999Z",
      "2026-01-19T00:00:00.000Z",
    ]);
    const body = (await api.get("/v1/reports/activity?from=2026-01-08&to=2026-01-19&interval=week")).body;
    expect(body.data).toEqual([
      { period_start: "2026-01-05T00:00:00.000Z", ...zeros, contacts_added: 1 },
      { period_start: "2026-01-12T00:00:00.000Z", ...zeros, contacts_added: 2 },
    ]);
    expect(body.period).toEqual({ from: "2026-01-08T00:00:00.000Z", to: "2026-01-19T00:00:00.000Z", interval: "week" });
    expect(body.totals).toEqual({ ...zeros, contacts_added: 3 });
    expect(body.meta).toEqual({ limit: 400, has_more: false, next_cursor: null });
  });

  it("a month series across a year boundary; quiet buckets are rows of zeros; totals sum the buckets", async () => {
    const { workspaceId, api } = await workspace();
    await contactsAddedAt(workspaceId, [
      "2025-12-15T10:00:00.000Z",
      "2026-01-20T10:00:00.000Z",
      "2026-01-31T23:59:59.999Z",
      "2026-02-01T00:00:00.000Z",
      "2026-03-01T00:00:00.000Z",
    ]);
    const body = (await api.get("/v1/reports/activity?from=2025-11-20&to=2026-03-01&interval=month")).body;
    expect(body.data).toEqual([
      { period_start: "2025-11-01T00:00:00.000Z", ...zeros },
      { period_start: "2025-12-01T00:00:00.000Z", ...zeros, contacts_added: 1 },
      { period_start: "2026-01-01T00:00:00.000Z", ...zeros, contacts_added: 2 },
      { period_start: "2026-02-01T00:00:00.000Z", ...zeros, contacts_added: 1 },
    ]);
    expect(body.totals).toEqual({ ...zeros, contacts_added: 4 });
  });

  it("timestamps cut inside a minute and inside a day count exactly what falls in [from, to)", async () => {
    // These instants are months before the real now the API reads: keep their exact rollups for the test.
    overrideEnvForTests({ RETENTION_EXACT_ROLLUPS_DAYS: "36500" });
    const { workspaceId, api } = await workspace();
    await contactsAddedAt(workspaceId, [
      "2026-01-05T10:00:00.000Z",
      "2026-01-05T10:00:30.000Z",
      "2026-01-05T10:05:00.000Z",
      "2026-01-06T09:00:00.000Z",
      "2026-01-07T08:59:59.000Z",
      "2026-01-07T08:59:59.500Z",
    ]);
    const added = async (from: string, to: string) =>
      (await api.get(`/v1/reports/activity?from=${from}&to=${to}`)).body.totals.contacts_added;
    expect(await added("2026-01-05T10:00:15Z", "2026-01-07T08:59:59.500Z")).toBe(4);
    expect(await added("2026-01-05T10:00:30.000Z", "2026-01-05T10:00:30.001Z")).toBe(1);
    expect(await added("2026-01-05T10:00:00.001Z", "2026-01-05T10:05:00.000Z")).toBe(1);
    expect(await added("2026-01-05", "2026-01-08")).toBe(6);
    reloadEnv();
  });

  it("a window end older than the exact rollups are kept is counted to its whole minute, and says so in period; pruning them changes no answer", async () => {
    const { workspaceId, api } = await workspace();
    const minute = new Date(Date.now() - 40 * 86_400_000);
    minute.setUTCSeconds(0, 0);
    const at = (seconds: number) => new Date(minute.getTime() + seconds * 1000).toISOString();
    await contactsAddedAt(workspaceId, [at(10), at(30), at(50), at(90)]);
    const ask = async () => (await api.get(`/v1/reports/activity?from=${at(20)}&to=${at(40)}`)).body;

    const before = await ask();
    expect(before.period).toMatchObject({ from: at(0), to: at(60) });
    expect(before.totals.contacts_added).toBe(3);
    await pruneExpired({ ...ctx, clock: systemClock }, parseEnv({}));
    const [left] = await ctx.db.execute<{ n: number }>(
      sql`select count(*)::int as n from report_activity where workspace_id = ${workspaceId} and grain = 'x'`,
    );
    expect(left!.n).toBe(0);
    expect(await ask()).toEqual({ ...before, as_of: expect.any(String) });
  });

  it("defaults: to is now, from 30 days before, interval day; period shows the window applied", async () => {
    const { api } = await workspace();
    const started = Date.now();
    const body = (await api.get("/v1/reports/activity")).body;
    const to = Date.parse(body.period.to);
    expect(to).toBeGreaterThanOrEqual(started - 1000);
    expect(to).toBeLessThanOrEqual(Date.now());
    expect(Date.parse(body.period.from)).toBe(to - 30 * 86_400_000);
    expect(body.period.interval).toBe("day");
    expect(body.data).toHaveLength(new Date(to).toISOString().endsWith("T00:00:00.000Z") ? 30 : 31);
    expect(body.data.every((row: typeof zeros) => row.opens === 0)).toBe(true);
    expect(body.scope).toEqual({ type: "workspace", brand_id: null });
    expect(body.as_of).toMatch(/Z$/);
  });

  it("more than 400 buckets is refused with too_many_buckets naming a coarser interval; 400 is allowed", async () => {
    const { api } = await workspace();
    const refused = await api.get("/v1/reports/activity?from=2025-01-01&to=2026-02-06");
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      type: "invalid_request_error",
      code: "too_many_buckets",
      param: "interval",
    });
    expect(refused.body.error.message).toContain("interval=week");
    expect((await api.get("/v1/reports/activity?from=2025-01-01&to=2026-02-05")).body.data).toHaveLength(400);
    expect((await api.get("/v1/reports/activity?from=2025-01-01&to=2026-02-06&interval=week")).status).toBe(200);
    expect(
      (await api.get("/v1/reports/activity?from=1990-01-01&to=2026-01-01&interval=month")).body.error.message,
    ).toMatch(/split the range/i);
    expect((await api.get("/v1/reports/activity?interval=year")).body.error).toMatchObject({
      code: "validation_failed",
      param: "interval",
    });
  });

  it("counts campaigns sent, opens and clicks (once folded) and opt-outs; a brand key sees its brand plus workspace-wide rows", async () => {
    const { workspaceId, brandId, api } = await workspace();
    const { brandId: other } = await createBrand(ctx, systemActor("test", workspaceId), {
      name: "Other",
      legalName: "Other Ltd",
      postalAddress: "4 St",
      websiteUrl: "https://o.test",
      senderEmail: "o@o.test",
    });
    const mine = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
    const theirs = await seedTopic(ctx, workspaceId, other, { requiresConfirmation: false });
    clock.set(new Date("2026-02-02T09:00:00.000Z"));
    const a = await seedSentCampaign(ctx, {
      workspaceId,
      brandId,
      topicId: mine,
      emails: ["a@example.com", "b@example.com"],
    });
    const b = await seedSentCampaign(ctx, { workspaceId, brandId: other, topicId: theirs, emails: ["c@example.com"] });
    clock.set(new Date("2026-02-03T09:00:00.000Z"));
    await recordOpen(ctx, a.sendIds["a@example.com"]!, { country: null });
    await recordOpen(ctx, a.sendIds["a@example.com"]!, { country: null });
    await recordClick(ctx, a.sendIds["b@example.com"]!, {
      url: "https://x.test",
      country: null,
      deviceType: null,
      client: null,
    });
    await recordOpen(ctx, b.sendIds["c@example.com"]!, { country: null });
    await unsubscribe(ctx, {
      contactId: a.contactIds["a@example.com"]!,
      scope: "topic",
      topicId: mine,
      campaignId: a.campaignId,
      sendId: a.sendIds["a@example.com"],
    });
    await unsubscribe(ctx, { contactId: b.contactIds["c@example.com"]!, scope: "all" });
    const path = "/v1/reports/activity?from=2026-02-02&to=2026-02-04";
    const etag = (await api.get(path)).headers.get("etag")!;
    expect((await api.get(path)).body.totals).toEqual({
      contacts_added: 3,
      unsubscribes: 2,
      campaigns_sent: 2,
      opens: 0,
      clicks: 0,
    });
    await foldEngagement(ctx);
    const folded = await api.get(path, { headers: { "if-none-match": etag } });
    expect(folded.status).toBe(200);
    expect(folded.body.data).toEqual([
      {
        period_start: "2026-02-02T00:00:00.000Z",
        contacts_added: 3,
        unsubscribes: 0,
        campaigns_sent: 2,
        opens: 0,
        clicks: 0,
      },
      {
        period_start: "2026-02-03T00:00:00.000Z",
        contacts_added: 0,
        unsubscribes: 2,
        campaigns_sent: 0,
        opens: 2,
        clicks: 1,
      },
    ]);
    const branded = (await apiClient((await seedKey(ctx, workspaceId, { brandId })).key).get(path)).body;
    expect(branded.totals).toEqual({ contacts_added: 3, unsubscribes: 2, campaigns_sent: 1, opens: 1, clicks: 1 });
    expect(branded.scope).toEqual({ type: "brand", brand_id: brandId });
  });

  it("the ETag holds while nothing changes (304) and changes after a write", async () => {
    const { workspaceId, api } = await workspace();
    const path = "/v1/reports/activity?from=2026-01-01&to=2026-02-01&interval=week";
    const etag = (await api.get(path)).headers.get("etag")!;
    const same = await api.get(path, { headers: { "if-none-match": etag } });
    expect(same.status).toBe(304);
    expect(same.headers.get("etag")).toBe(etag);
    await contactsAddedAt(workspaceId, ["2026-01-10T00:00:00.000Z"]);
    const changed = await api.get(path, { headers: { "if-none-match": etag } });
    expect(changed.status).toBe(200);
    expect(changed.body.totals.contacts_added).toBe(1);
  });
});

import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { apiKeyActor } from "@/lib/actor";
import { runBulkActionChunks, startBulkAction } from "@/lib/contacts/contact-bulk-actions";
import { defineAttribute } from "@/lib/contacts/define-attribute";
import { editContact } from "@/lib/contacts/edit-contact";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import type { Ctx } from "@/lib/context";
import { automationEntries, automations, campaigns } from "@/lib/db/schema";
import { createList } from "@/lib/lists/create-list";
import { addListMembers, removeListMembers } from "@/lib/lists/list-membership";
import { seedAcceptedSend } from "@/lib/testing/campaign-fixture";
import { seedKey, seedTopic } from "@/lib/testing/factories";
import { importTestFixture } from "@/lib/testing/import-fixture";
import { activeAutomation, enteredContacts } from "@/lib/testing/trigger-fixture";
import { recordClick } from "@/lib/tracking/record-engagement";

import { enterDueDateAttributes } from "./enter-date-attribute";

const { ctx, clock, workspace } = importTestFixture();

/** A workspace with a list, an active list_added automation on it, and Ann (subscribed to the topic) and Bob (not). */
async function listSetup() {
  const w = await workspace();
  const { listId } = await createList(ctx, w.actor, { brandId: w.brandId, name: "Regulars" });
  const automationId = await activeAutomation(ctx, w.workspaceId, w.topicId, "list_added", { list_id: listId });
  const ann = (await upsertContact(ctx, w.actor, { email: "ann@example.org", topicIds: [w.topicId] })).contact.id;
  const bob = (await upsertContact(ctx, w.actor, { email: "bob@example.org" })).contact.id;
  return { w, listId, automationId, ann, bob };
}

describe("trigger list_added", () => {
  it("a contact added to the list enters once, a second add enters nobody again, and one not subscribed to the topic does not enter", async () => {
    const { w, listId, automationId, ann, bob } = await listSetup();
    await addListMembers(ctx, w.actor, listId, [ann, bob]);
    await addListMembers(ctx, w.actor, listId, [ann]);
    expect(await enteredContacts(ctx, automationId)).toEqual([ann]);
  });

  it("an add to another list, or to a list of another workspace, enters nobody", async () => {
    const { w, automationId, ann } = await listSetup();
    const { listId: other } = await createList(ctx, w.actor, { brandId: w.brandId, name: "Other" });
    await addListMembers(ctx, w.actor, other, [ann]);
    const elsewhere = await listSetup();
    await addListMembers(ctx, elsewhere.w.actor, elsewhere.listId, [elsewhere.ann]);
    expect(await enteredContacts(ctx, automationId)).toEqual([]);
    expect(await enteredContacts(ctx, elsewhere.automationId)).toEqual([elsewhere.ann]);
  });

  it("a bulk add of many enters all of them in one go: the same statements for 300 people as for 3", async () => {
    const small = await bulkAdd(3);
    const large = await bulkAdd(300);
    expect(small.entered).toHaveLength(3);
    expect(large.entered).toHaveLength(300);
    expect(large.statements).toBe(small.statements);
  });
});

describe("re-entry through a trigger", () => {
  it("a person whose entry ended enters again on the next occurrence only when the automation allows it and that long has passed", async () => {
    const { w, listId, automationId: once, ann } = await listSetup();
    const again = await activeAutomation(ctx, w.workspaceId, w.topicId, "list_added", { list_id: listId });
    await ctx.db.update(automations).set({ reentryAfterMinutes: 60 }).where(eq(automations.id, again));
    const readd = async () => {
      await removeListMembers(ctx, w.actor, listId, [ann]);
      await addListMembers(ctx, w.actor, listId, [ann]);
    };
    await addListMembers(ctx, w.actor, listId, [ann]);
    // While the entry is active, a new occurrence enters nobody.
    await readd();
    expect(await enteredContacts(ctx, again)).toEqual([ann]);
    await ctx.db
      .update(automationEntries)
      .set({ status: "completed", endedAt: clock.now() })
      .where(eq(automationEntries.contactId, ann));
    clock.advance(30 * 60_000);
    await readd();
    expect(await enteredContacts(ctx, again)).toEqual([ann]);
    clock.advance(31 * 60_000);
    await readd();
    expect(await enteredContacts(ctx, again)).toEqual([ann, ann]);
    expect(await enteredContacts(ctx, once)).toEqual([ann]);
  });
});

/** `n` subscribed contacts written set-wise, added to a list_added automation's list by a bulk action; the statements its chunk ran. */
async function bulkAdd(n: number) {
  const { w, listId, automationId } = await listSetup();
  await ctx.db.execute(sql`
    with made as (
      insert into contacts (id, workspace_id, email)
      select 'ct_bulk' || ${w.workspaceId} || g, ${w.workspaceId}, 'p' || g || '@example.org' from generate_series(1, ${n}) g
      returning id)
    insert into subscriptions (id, workspace_id, contact_id, topic_id, state, source)
    select 'sub_' || substr(id, 4), ${w.workspaceId}, id, ${w.topicId}, 'subscribed', 'api' from made`);
  const { bulkActionId } = await startBulkAction(ctx, w.actor, {
    kind: "add_to_list",
    listId,
    filters: { topic: w.topicId },
  });
  const counted = countingStatements(ctx);
  await runBulkActionChunks(counted.ctx, bulkActionId);
  const entered = (await enteredContacts(ctx, automationId)).filter((id) => id.startsWith("ct_bulk"));
  // Each entry's run started with it.
  const [runs] = (await ctx.db.execute(sql`
    select count(*)::int as n from workflow_runs r join automation_entries e on e.id = r.event->'data'->>'entryId'
    where r.event->>'name' = 'automation/entry.started' and e.automation_id = ${automationId}`)) as unknown as {
    n: number;
  }[];
  expect(runs!.n).toBe((await enteredContacts(ctx, automationId)).length);
  return { entered, statements: counted.count() };
}

/** A context whose transactions count the statements run in them. */
function countingStatements(base: Ctx) {
  let statements = 0;
  const counting = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(object, property, receiver) {
        const value = Reflect.get(object, property, receiver);
        if (property === "transaction")
          return (fn: (tx: unknown) => Promise<unknown>) =>
            (value as (f: typeof fn) => Promise<unknown>).call(object, (tx) => fn(countingTx(tx as object)));
        return typeof value === "function" ? value.bind(object) : value;
      },
    });
  const countingTx = <T extends object>(tx: T): T =>
    new Proxy(tx, {
      get(object, property, receiver) {
        const value = Reflect.get(object, property, receiver);
        if (typeof value !== "function") return value;
        if (["execute", "select", "insert", "update", "delete"].includes(String(property)))
          return (...args: unknown[]) => {
            statements++;
            return (value as (...a: unknown[]) => unknown).apply(object, args);
          };
        return value.bind(object);
      },
    });
  return { ctx: { ...base, db: counting(base.db) }, count: () => statements };
}

describe("trigger attribute_changed", () => {
  it("enters when the attribute changes between the named values, once, and not on other changes", async () => {
    const w = await workspace();
    const automationId = await activeAutomation(ctx, w.workspaceId, w.topicId, "attribute_changed", {
      attribute: "plan",
      from: "free",
      to: "pro",
    });
    const anyChange = await activeAutomation(ctx, w.workspaceId, w.topicId, "attribute_changed", {
      attribute: "seats",
    });
    const ann = (
      await upsertContact(ctx, w.actor, {
        email: "ann@example.org",
        topicIds: [w.topicId],
        attributes: { plan: "free" },
      })
    ).contact.id;
    await editContact(ctx, w.actor, { contactId: ann, firstName: "", lastName: "", attributes: { plan: "team" } });
    expect(await enteredContacts(ctx, automationId)).toEqual([]);
    await editContact(ctx, w.actor, { contactId: ann, firstName: "", lastName: "", attributes: { plan: "free" } });
    await upsertContact(ctx, w.actor, { email: "ann@example.org", attributes: { plan: "pro" } });
    expect(await enteredContacts(ctx, automationId)).toEqual([ann]);
    expect(await enteredContacts(ctx, anyChange)).toEqual([]);
    await editContact(ctx, w.actor, {
      contactId: ann,
      firstName: "",
      lastName: "",
      attributes: { plan: "pro", seats: 3 },
    });
    expect(await enteredContacts(ctx, anyChange)).toEqual([ann]);
  });

  it("a contact not subscribed to the automation's topic does not enter", async () => {
    const w = await workspace();
    const automationId = await activeAutomation(ctx, w.workspaceId, w.topicId, "attribute_changed", {
      attribute: "plan",
    });
    const bob = (await upsertContact(ctx, w.actor, { email: "bob@example.org", attributes: { plan: "free" } })).contact
      .id;
    await editContact(ctx, w.actor, { contactId: bob, firstName: "", lastName: "", attributes: { plan: "pro" } });
    expect(await enteredContacts(ctx, automationId)).toEqual([]);
  });
});

describe("trigger link_clicked", () => {
  async function clickSetup(url: string | null) {
    const seeded = await seedAcceptedSend(ctx);
    const [campaign] = await ctx.db.select().from(campaigns).where(eq(campaigns.id, seeded.campaignId));
    const automationId = await activeAutomation(ctx, seeded.workspaceId, campaign!.topicId!, "link_clicked", {
      campaign_id: seeded.campaignId,
      ...(url ? { url } : {}),
    });
    return { ...seeded, automationId };
  }
  const person = {
    userAgent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 Safari/605.1.15",
    ip: "198.51.100.7",
  };
  const click = (sendId: string, url: string, request = person) =>
    recordClick(ctx, sendId, { url, country: null, deviceType: null, client: null, request });

  it("a person's click on the campaign's link enters them; a scanner's click does not", async () => {
    const scanned = await clickSetup(null);
    clock.advance(10 * 60_000); // past the window in which a click is taken for a scanner's
    await click(scanned.send.id, "https://example.com/a", { userAgent: "", ip: "203.0.113.9" });
    expect(await enteredContacts(ctx, scanned.automationId)).toEqual([]);
    await click(scanned.send.id, "https://example.com/a");
    expect(await enteredContacts(ctx, scanned.automationId)).toEqual([scanned.contactId]);
  });

  it("with a url, only a click on that link enters", async () => {
    const { send, automationId, contactId } = await clickSetup("https://example.com/pricing");
    clock.advance(10 * 60_000);
    await click(send.id, "https://example.com/blog");
    expect(await enteredContacts(ctx, automationId)).toEqual([]);
    await click(send.id, "https://example.com/pricing");
    expect(await enteredContacts(ctx, automationId)).toEqual([contactId]);
  });
});

describe("trigger date_attribute", () => {
  async function dateSetup(settings: Record<string, unknown>, dates: Record<string, string>) {
    const w = await workspace();
    await defineAttribute(ctx, w.actor, { key: "renews_on", type: "date" });
    const automationId = await activeAutomation(ctx, w.workspaceId, w.topicId, "date_attribute", settings);
    const ids: Record<string, string> = {};
    for (const [name, date] of Object.entries(dates))
      ids[name] = (
        await upsertContact(ctx, w.actor, {
          email: `${name}@example.org`,
          topicIds: [w.topicId],
          attributes: { renews_on: date },
        })
      ).contact.id;
    return { w, automationId, ids };
  }

  it("enters the contacts whose date moved by offset_days is today, and a second pass the same day enters nobody twice", async () => {
    const today = clock.now().toISOString().slice(0, 10);
    const inThreeDays = new Date(clock.now().getTime() + 3 * 86_400_000).toISOString().slice(0, 10);
    const { automationId, ids } = await dateSetup(
      { attribute: "renews_on", offset_days: -3 },
      { due: inThreeDays, today, later: "2099-01-01" },
    );
    expect((await enterDueDateAttributes(ctx)).entered).toBeGreaterThanOrEqual(1);
    expect(await enteredContacts(ctx, automationId)).toEqual([ids.due]);
    const again = await enterDueDateAttributes(ctx);
    expect(await enteredContacts(ctx, automationId)).toEqual([ids.due]);
    expect(again.entered).toBe(0);
  });

  it("a date comes round on the contact's own day: in their time zone, else the workspace's, once", async () => {
    // The clock moved forward to the next 16:00 UTC: then it is already the next day in Tokyo (UTC+9, no summer time).
    const day = 86_400_000;
    const next = Math.ceil((clock.now().getTime() - 16 * 3_600_000) / day) * day + 16 * 3_600_000;
    clock.set(new Date(next));
    const tokyoDay = new Date(next + day).toISOString().slice(0, 10);
    const { w, automationId, ids } = await dateSetup({ attribute: "renews_on" }, { tokyo: tokyoDay, london: tokyoDay });
    await upsertContact(ctx, w.actor, { email: "tokyo@example.org", timeZone: "Asia/Tokyo" });
    await enterDueDateAttributes(ctx);
    expect(await enteredContacts(ctx, automationId)).toEqual([ids.tokyo]);
    // Half past midnight UTC (the workspace's zone): London's day has come; Tokyo's entry is not made again.
    clock.set(new Date(next + 8.5 * 3_600_000));
    await enterDueDateAttributes(ctx);
    await enterDueDateAttributes(ctx);
    expect((await enteredContacts(ctx, automationId)).sort()).toEqual([ids.tokyo, ids.london].sort());
  });

  it("yearly: the month and day come round whatever the year", async () => {
    const now = clock.now();
    const monthDay = now.toISOString().slice(5, 10);
    const { automationId, ids } = await dateSetup(
      { attribute: "renews_on", yearly: true },
      { born: `1990-${monthDay}`, other: monthDay === "01-01" ? "1990-06-01" : "1990-01-01" },
    );
    await enterDueDateAttributes(ctx);
    expect(await enteredContacts(ctx, automationId)).toEqual([ids.born]);
  });
});

describe("trigger topic_confirmed without a confirmation", () => {
  it("a subscription to a topic that skips confirmation enters the topic's automation once", async () => {
    const w = await workspace();
    const automationId = await activeAutomation(ctx, w.workspaceId, w.topicId, "topic_confirmed");
    const other = await seedTopic(ctx, w.workspaceId, w.brandId, { requiresConfirmation: false });
    const { contact } = await upsertContact(ctx, w.actor, { email: "ann@example.org", topicIds: [w.topicId] });
    await upsertContact(ctx, w.actor, { email: "ann@example.org", topicIds: [w.topicId, other] });
    expect(await enteredContacts(ctx, automationId)).toEqual([contact.id]);
  });

  it("a test key's subscription enters nobody", async () => {
    const w = await workspace();
    const automationId = await activeAutomation(ctx, w.workspaceId, w.topicId, "topic_confirmed");
    const { keyId } = await seedKey(ctx, w.workspaceId, { environment: "test" });
    const testKey = apiKeyActor({ keyId, workspaceId: w.workspaceId, brandId: null, mode: "test" });
    await upsertContact(ctx, testKey, { email: "ann@example.org", topicIds: [w.topicId] });
    expect(await enteredContacts(ctx, automationId)).toEqual([]);
  });
});

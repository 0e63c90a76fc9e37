import { eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { previewAudience } from "@/lib/campaigns/preview-audience";
import { createCampaign } from "@/lib/campaigns/save-campaign";
import { snapshotAudience } from "@/lib/campaigns/snapshot-audience";
import { defineAttribute } from "@/lib/contacts/define-attribute";
import { withTransaction } from "@/lib/context";
import { campaigns, events, listMembers, sends } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import { createList } from "@/lib/lists/create-list";
import { clearForSending } from "@/lib/testing/clear-for-sending";
import { seedTopic, seedWorkspace, setSendAllowance } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { countSegmentRule } from "./count-segment";
import { createSegment, updateSegment } from "./save-segment";
import type { SegmentCondition, SegmentRule } from "./segment-rule-schema";

const { ctx } = testCtx();
const NOW = ctx.clock.now();
const DAY = 24 * 60 * 60 * 1000;

const SEED = Number(process.env.SEGMENT_SEED ?? Math.floor(Math.random() * 2 ** 31));
/** Enough rules to meet every kind of condition many times over, few enough for a slow, shared machine. */
const RULES = 80;
/** Every this many rules the snapshot itself is taken too (in a transaction rolled back afterwards). */
const SNAPSHOT_EVERY = 4;
const PEOPLE = 60;

const FIRST_NAMES = ["Ada", "ada", "Bob", "Alice", "", null] as const;
const LAST_NAMES = ["Lovelace", "Byron", "Lamb", null] as const;
const PLANS = ["pro", "Pro team", "free", ""] as const;
const AGES = [18, 30, 30.5, 64] as const;
const DATES = ["2025-01-01", "2025-06-15", "2025-06-15T12:00:00Z", "2025-12-31T23:59:59.000+01:00"] as const;
const SUBSCRIBED_AT = ["2025-03-01T00:00:00Z", "2025-07-01T00:00:00Z", "2025-11-20T08:30:00Z"] as const;
const SOURCES = ["double_opt_in", "api", "import", "dashboard"] as const;
const ORIGINS = ["fm_one", "fm_two", "key_one", "imp_one"] as const;
const DAYS_AGO = [0.5, 3, 10, 45, 200] as const;

interface Person {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  attributes: Record<string, string | number | boolean>;
  lists: Set<string>;
  subscription: {
    state: "subscribed" | "pending" | "unsubscribed";
    subscribedAt: Date | null;
    source: string;
    origin: string | null;
  } | null;
  engagement: { type: "opened" | "clicked"; campaignId: string; at: Date; machine: boolean }[];
}

/** A small deterministic generator, so the data set is the seed's as the rules are. */
function prng(seed: number) {
  let state = seed >>> 0 || 1;
  return {
    next() {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      return (state >>> 0) / 2 ** 32;
    },
    pick<T>(items: readonly T[]): T {
      return items[Math.floor(this.next() * items.length)]!;
    },
    chance(p: number) {
      return this.next() < p;
    },
  };
}

/** One workspace: PEOPLE contacts with varied names, attributes, lists, subscriptions and opens and clicks, human and machine. */
async function seedDataset() {
  const random = prng(SEED);
  const { workspaceId, brandId } = await seedWorkspace(ctx);
  await clearForSending(ctx, workspaceId);
  await setSendAllowance(ctx, workspaceId, 1_000_000);
  const operator = systemActor("test", workspaceId);
  const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
  const otherTopicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
  for (const [key, type] of [
    ["plan", "string"],
    ["age", "number"],
    ["renews", "date"],
    ["vip", "boolean"],
  ] as const)
    await defineAttribute(ctx, operator, { key, type });
  const listIds = [
    (await createList(ctx, operator, { brandId, name: "Customers" })).listId,
    (await createList(ctx, operator, { brandId, name: "Press" })).listId,
  ];
  const campaign = (name: string) =>
    createCampaign(ctx, operator, { brandId, topicId, name, subject: "Hi", html: "<p>Hi</p>" });
  const campaignIds = [(await campaign("Spring")).campaignId, (await campaign("Summer")).campaignId];

  const people: Person[] = [];
  for (let i = 0; i < PEOPLE; i++) {
    const attributes: Person["attributes"] = {};
    if (random.chance(0.7)) attributes.plan = random.pick(PLANS);
    if (random.chance(0.7)) attributes.age = random.pick(AGES);
    if (random.chance(0.6)) attributes.renews = random.pick(DATES);
    if (random.chance(0.6)) attributes.vip = random.chance(0.5);
    const subscribed = random.chance(0.85);
    people.push({
      id: newId("ct"),
      email: `p${i}@${random.pick(["ada.example", "bob.example", "example.org"])}`,
      firstName: random.pick(FIRST_NAMES),
      lastName: random.pick(LAST_NAMES),
      attributes,
      lists: new Set(listIds.filter(() => random.chance(0.4))),
      subscription: subscribed
        ? {
            state: random.chance(0.85) ? "subscribed" : random.pick(["pending", "unsubscribed"] as const),
            subscribedAt: random.chance(0.9) ? new Date(random.pick(SUBSCRIBED_AT)) : null,
            source: random.pick(SOURCES),
            origin: random.chance(0.7) ? random.pick(ORIGINS) : null,
          }
        : null,
      engagement: Array.from({ length: Math.floor(random.next() * 4) }, () => ({
        type: random.pick(["opened", "clicked"] as const),
        campaignId: random.pick(campaignIds),
        at: new Date(NOW.getTime() - random.pick(DAYS_AGO) * DAY),
        machine: random.chance(0.3),
      })),
    });
  }
  for (const person of people) {
    await ctx.db.execute(sql`insert into contacts (id, workspace_id, email, first_name, last_name, attributes)
      values (${person.id}, ${workspaceId}, ${person.email}, ${person.firstName}, ${person.lastName}, ${JSON.stringify(person.attributes)}::jsonb)`);
    for (const listId of person.lists)
      await ctx.db.insert(listMembers).values({ listId, contactId: person.id, workspaceId });
    // A subscription to another topic too: the topic conditions must read the chosen topic's only.
    await ctx.db
      .execute(sql`insert into subscriptions (id, workspace_id, contact_id, topic_id, state, source, subscribed_at)
      values (${newId("sub")}, ${workspaceId}, ${person.id}, ${otherTopicId}, 'subscribed', 'api', ${"2025-01-01T00:00:00Z"}::timestamptz)`);
    const s = person.subscription;
    if (s) {
      const origin = !s.origin
        ? null
        : s.origin.startsWith("fm_")
          ? { kind: "signup_form", form_id: s.origin, form_name: "Form" }
          : s.origin.startsWith("key_")
            ? { kind: "api_key", key_id: s.origin, key_name: null }
            : { kind: "import", import_id: s.origin, file_name: "a.csv", row: 1 };
      await ctx.db
        .execute(sql`insert into subscriptions (id, workspace_id, contact_id, topic_id, state, source, origin, subscribed_at)
        values (${newId("sub")}, ${workspaceId}, ${person.id}, ${topicId}, ${s.state}, ${s.source},
                ${origin ? JSON.stringify(origin) : null}::jsonb, ${s.subscribedAt?.toISOString() ?? null}::timestamptz)`);
    }
    for (const e of person.engagement)
      await ctx.db.insert(events).values({
        id: newId("evt"),
        workspaceId,
        type: `email.${e.type}`,
        data: { contact_id: person.id, campaign_id: e.campaignId, email: person.email },
        occurredAt: e.at,
        machine: e.machine ? "apple_privacy_proxy" : null,
      });
  }
  return { workspaceId, brandId, topicId, listIds, campaignIds, people, operator };
}

type Dataset = Awaited<ReturnType<typeof seedDataset>>;

/** The oracle: the rule's meaning (docs/readings.md, "Segments") over the seeded people, in plain code. */
function matches(rule: SegmentRule, person: Person): boolean {
  const combine = (match: "all" | "any", results: boolean[]) =>
    match === "all" ? results.every(Boolean) : results.some(Boolean);
  return combine(
    rule.match,
    rule.groups.map((group) =>
      combine(
        group.match,
        group.conditions.map((condition) => holds(condition, person)),
      ),
    ),
  );
}

function text(op: string, stored: string | null | undefined, value: string): boolean {
  const have = (stored ?? "").toLowerCase();
  const want = value.toLowerCase();
  switch (op) {
    case "equals":
      return have === want;
    case "not_equals":
      return have !== want;
    case "contains":
      return have.includes(want);
    case "starts_with":
      return have.startsWith(want);
    case "is_set":
      return (stored ?? "") !== "";
    default:
      return (stored ?? "") === "";
  }
}

const TYPES = { plan: "string", age: "number", renews: "date", vip: "boolean" } as const;

function holds(condition: SegmentCondition, person: Person): boolean {
  switch (condition.kind) {
    case "field": {
      const stored = { email: person.email, first_name: person.firstName, last_name: person.lastName }[condition.field];
      return text(condition.op, stored, condition.value ?? "");
    }
    case "attribute": {
      const stored = person.attributes[condition.key];
      const set = stored !== undefined && stored !== "";
      if (condition.op === "is_set") return set;
      if (condition.op === "is_not_set") return !set;
      switch (TYPES[condition.key as keyof typeof TYPES]) {
        case "string":
          // A missing value is empty: "not equal" to any value.
          if (stored === undefined)
            return condition.op === "not_equals" && text(condition.op, stored, String(condition.value));
          return typeof stored === "string" ? text(condition.op, stored, String(condition.value)) : false;
        case "number":
          if (condition.op === "not_equals") return stored !== condition.value;
          if (typeof stored !== "number") return false;
          return condition.op === "equals"
            ? stored === condition.value
            : condition.op === "greater"
              ? stored > Number(condition.value)
              : stored < Number(condition.value);
        case "boolean":
          return stored === condition.value;
        case "date": {
          if (typeof stored !== "string") return false;
          const at = Date.parse(stored);
          const than = Date.parse(String(condition.value));
          return condition.op === "before" ? at < than : at > than;
        }
      }
      return false;
    }
    case "list":
      return person.lists.has(condition.listId) === (condition.op === "in");
    case "subscribed": {
      const at = person.subscription?.subscribedAt;
      if (!at) return false;
      const than = Date.parse(condition.value);
      return condition.op === "before" ? at.getTime() < than : at.getTime() > than;
    }
    case "source": {
      const s = person.subscription;
      const made = !!s && s.source === condition.source && (!condition.origin || s.origin === condition.origin);
      return made === (condition.op === "is");
    }
    case "engagement": {
      const engaged = person.engagement.some(
        (e) =>
          !e.machine &&
          e.type === condition.action &&
          (condition.campaignId !== undefined
            ? e.campaignId === condition.campaignId
            : e.at.getTime() >= NOW.getTime() - condition.days! * DAY),
      );
      return engaged === (condition.op === "did");
    }
  }
}

/** Rules over the data set's own names and values, so that most conditions match someone and some match no one. */
function ruleArbitrary(data: Dataset): fc.Arbitrary<SegmentRule> {
  const textOp = fc.constantFrom("equals", "not_equals", "contains", "starts_with", "is_set", "is_not_set" as const);
  const condition: fc.Arbitrary<SegmentCondition> = fc.oneof(
    fc.record({
      kind: fc.constant("field" as const),
      field: fc.constantFrom("email", "first_name", "last_name" as const),
      op: textOp,
      value: fc.constantFrom("ada", "Ada", "a", "bo", "p1", "example.org", "Lamb"),
    }),
    fc.record({
      kind: fc.constant("attribute" as const),
      key: fc.constant("plan"),
      op: textOp,
      value: fc.constantFrom("pro", "PRO", "team", "free", "f"),
    }),
    fc.record({
      kind: fc.constant("attribute" as const),
      key: fc.constant("age"),
      op: fc.constantFrom("equals", "not_equals", "greater", "less", "is_set", "is_not_set" as const),
      value: fc.constantFrom(18, 30, 30.5, 40, 64),
    }),
    fc.record({
      kind: fc.constant("attribute" as const),
      key: fc.constant("renews"),
      op: fc.constantFrom("before", "after", "is_set", "is_not_set" as const),
      value: fc.constantFrom("2025-01-01", "2025-06-15", "2025-06-15T12:00:00Z", "2025-09-01", "2026-01-01"),
    }),
    fc.record({
      kind: fc.constant("attribute" as const),
      key: fc.constant("vip"),
      op: fc.constantFrom("equals", "is_set", "is_not_set" as const),
      value: fc.boolean(),
    }),
    fc.record({
      kind: fc.constant("list" as const),
      op: fc.constantFrom("in", "not_in" as const),
      listId: fc.constantFrom(...data.listIds),
    }),
    fc.record({
      kind: fc.constant("subscribed" as const),
      op: fc.constantFrom("before", "after" as const),
      value: fc.constantFrom("2025-03-01", "2025-05-01", "2025-07-01T00:00:00Z", "2025-12-01"),
    }),
    fc.record(
      {
        kind: fc.constant("source" as const),
        op: fc.constantFrom("is", "is_not" as const),
        source: fc.constantFrom(...SOURCES),
        origin: fc.constantFrom(...ORIGINS),
      },
      { requiredKeys: ["kind", "op", "source"] },
    ),
    fc.oneof(
      fc.record({
        kind: fc.constant("engagement" as const),
        op: fc.constantFrom("did", "did_not" as const),
        action: fc.constantFrom("opened", "clicked" as const),
        campaignId: fc.constantFrom(...data.campaignIds),
      }),
      fc.record({
        kind: fc.constant("engagement" as const),
        op: fc.constantFrom("did", "did_not" as const),
        action: fc.constantFrom("opened", "clicked" as const),
        days: fc.constantFrom(1, 7, 30, 90),
      }),
    ),
  );
  const match = fc.constantFrom("all", "any" as const);
  return fc.record({
    match,
    groups: fc.array(fc.record({ match, conditions: fc.array(condition, { minLength: 1, maxLength: 3 }) }), {
      minLength: 1,
      maxLength: 3,
    }),
  });
}

class RolledBack extends Error {}

/** Takes the campaign's audience snapshot as dispatch would, reads whom it wrote sends for, and undoes it all. */
async function snapshotRecipients(campaignId: string): Promise<string[]> {
  let recipients: string[] = [];
  await withTransaction(ctx, async (tx) => {
    await tx.db.update(campaigns).set({ status: "sending" }).where(eq(campaigns.id, campaignId));
    await snapshotAudience(tx, campaignId);
    const rows = await tx.db.select({ contactId: sends.contactId }).from(sends).where(eq(sends.campaignId, campaignId));
    recipients = rows.map((row) => row.contactId).sort();
    throw new RolledBack();
  }).catch((error: unknown) => {
    if (!(error instanceof RolledBack)) throw error;
  });
  return recipients;
}

// Seeding and 80 rules, each counted, previewed and some snapshotted, on a shared two-core machine.
const AGREEMENT_TIMEOUT_MS = 600_000;

describe("segments", { timeout: AGREEMENT_TIMEOUT_MS }, () => {
  it("one rule compiler: the live count, the exclusion preview and the audience snapshot agree with each other and with the rule's meaning, on generated rules", async () => {
    const data = await seedDataset();
    const audience = data.people.filter((person) => person.subscription?.state === "subscribed");
    const starting: SegmentRule = {
      match: "all",
      groups: [{ match: "all", conditions: [{ kind: "field", field: "email", op: "is_set" }] }],
    };
    const { segmentId } = await createSegment(ctx, data.operator, { name: "Generated", rule: starting });
    const campaignFor = async (segmentMode: "include" | "exclude") =>
      (
        await createCampaign(ctx, data.operator, {
          brandId: data.brandId,
          topicId: data.topicId,
          segmentId,
          segmentMode,
          name: `Segment ${segmentMode}`,
          subject: "Hi",
          html: "<p>Hi</p>",
        })
      ).campaignId;
    const campaignIds = { include: await campaignFor("include"), exclude: await campaignFor("exclude") };

    let run = 0;
    let snapshots = 0;
    let telling = 0;
    await fc.assert(
      fc.asyncProperty(ruleArbitrary(data), fc.constantFrom("include", "exclude" as const), async (rule, mode) => {
        const index = run++;
        const matching = audience.filter((person) => matches(rule, person)).map((person) => person.id);
        if (matching.length > 0 && matching.length < audience.length) telling++;
        const kept = mode === "include" ? matching : audience.map((p) => p.id).filter((id) => !matching.includes(id));

        const counted = await countSegmentRule(ctx, data.operator, { rule, topicId: data.topicId });
        expect(counted, JSON.stringify(rule)).toEqual({ count: matching.length, more: false });

        await updateSegment(ctx, data.operator, segmentId, { rule });
        const preview = await previewAudience(ctx, data.operator, campaignIds[mode]);
        expect(preview.recipients, JSON.stringify(rule)).toBe(kept.length);
        const removed = preview.exclusions.find((e) => ["not_in_segment", "in_excluded_segment"].includes(e.reason));
        expect(removed?.count ?? 0, JSON.stringify(rule)).toBe(audience.length - kept.length);

        if (index % SNAPSHOT_EVERY === 0) {
          snapshots++;
          expect(await snapshotRecipients(campaignIds[mode]), JSON.stringify(rule)).toEqual([...kept].sort());
        }
      }),
      { numRuns: RULES, seed: SEED },
    );
    console.log(
      `segment agreement: ${run} rules (${telling} matching some but not all of ${audience.length} subscribers, ${snapshots} snapshots taken), seed ${SEED} (SEGMENT_SEED=${SEED} repeats it)`,
    );
    expect(run).toBe(RULES);
    // Rules that match everyone or no one would agree however wrong the compiler: most must tell people apart.
    expect(telling).toBeGreaterThan(RULES / 3);
  });
});

import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { attributeAccepts } from "@/lib/contacts/attribute-schemas";
import { defineAttribute } from "@/lib/contacts/define-attribute";
import { newId } from "@/lib/ids";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { compileSegment } from "./compile-segment";
import { countSegmentRule } from "./count-segment";
import type { SegmentRule } from "./segment-rule-schema";

const { ctx } = testCtx();
const DAY = 24 * 60 * 60 * 1000;
const SEED = Number(process.env.SEGMENT_SEED ?? Math.floor(Math.random() * 2 ** 31));

/** The dates compared with: month starts (where a day past a month's end lands), times with offsets, the ends of the years a date can have. */
const COMPARED_WITH = [
  "2025-03-01",
  "2025-03-02",
  "2025-03-03",
  "2025-03-04",
  "2025-03-04T12:00Z",
  "2024-03-01",
  "2025-05-01",
  "2025-06-15",
  "2025-06-15T12:00:00Z",
  "2025-06-15T23:59:59.999+14:00",
  "2025-03-01T00:00-23:59",
  "2025-02-28T23:30:00.5Z",
  "0000-01-03",
  "9999-12-30T12:00Z",
] as const;

/** Text the service refuses as a date, most not even shaped like one; stored around its checks, it must never fail a count. */
const NOT_DATES = [
  "hello",
  "",
  "2025/06/01",
  " 2025-06-01",
  "20250601",
  "2025-6-1",
  "2025-13-01",
  "2025-00-10",
  "2025-06-32",
  "2025-06-01T10:00",
  "2025-06-01T25:00Z",
  "2025-06-01T24:01Z",
  "2025-06-01t10:00Z",
  "2025-06-01T10:00+24:00",
  "2025-06-01T10:00:00.1234Z",
] as const;

function prng(seed: number) {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

/** Dates as the schema takes them, near each compared date: every shape, any offset, 24:00, days past a month's end. */
function storedDates(seed: number): string[] {
  const random = prng(seed);
  const int = (n: number) => Math.floor(random() * n);
  const two = (n: number) => String(n).padStart(2, "0");
  const dates: string[] = [];
  for (const compared of COMPARED_WITH) {
    const at = Date.parse(compared);
    for (let i = 0; i < 40; i++) {
      const day = new Date(at + (int(15) - 7) * DAY + int(DAY)).toISOString().slice(0, 10);
      // A day past the month's end (2025-02-30), as Date.parse takes it, one time in five.
      const date = random() < 0.2 ? `${day.slice(0, 8)}${29 + int(3)}` : day;
      const shape = int(5);
      if (shape === 0) {
        dates.push(date);
        continue;
      }
      const zone = random() < 0.4 ? "Z" : `${random() < 0.5 ? "+" : "-"}${two(int(24))}:${two(int(60))}`;
      if (random() < 0.05) {
        dates.push(`${date}T24:00${shape > 2 ? ":00" : ""}${zone}`);
        continue;
      }
      const minute = `${two(int(24))}:${two(int(60))}`;
      const seconds =
        shape === 1 ? "" : `:${two(int(60))}${shape === 3 ? `.${String(int(1000)).slice(0, 1 + int(3))}` : ""}`;
      dates.push(`${date}T${minute}${seconds}${zone}`);
    }
  }
  // The extremes, around each: every day within a week, and the days past the ends of its month and the one
  // before, at the first and last instants a day's text can name.
  for (const compared of COMPARED_WITH) {
    const at = Date.parse(compared);
    for (let k = -7; k <= 7; k++) {
      const day = new Date(at + k * DAY).toISOString().slice(0, 10);
      const month = new Date(at + (k < 0 ? -31 : 0) * DAY).toISOString().slice(0, 8);
      for (const date of [day, `${month}29`, `${month}30`, `${month}31`])
        for (const time of [
          "",
          "T24:00-23:59",
          "T00:00+23:59",
          "T23:59:59.999-23:59",
          "T00:00:00.000+23:59",
          "T12:00Z",
        ])
          dates.push(`${date}${time}`);
    }
  }
  // Those that leave the years 0000 to 9999 (near the ends) are not dates the schema takes: left out.
  return [...new Set(dates)].filter((value) => attributeAccepts("date", value));
}

describe("segment date conditions", () => {
  it("a date attribute is before or after a date as Date.parse reads both, a date without a time midnight UTC; text that is not a date is neither and never an error", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const stored = storedDates(SEED);
    expect(stored.length).toBeGreaterThan(COMPARED_WITH.length * 30);
    const unshaped = NOT_DATES.filter((value) => !/^.{4}-.{2}-.{2}/.test(value));
    // Stored as the database holds them, around the service's checks; JSON that is not text too.
    const values: unknown[] = [...stored, ...NOT_DATES, 20250601, true, { at: "2025-06-15" }, ["2025-06-15"]];
    const ids = new Map(values.map((value) => [newId("ct"), value] as const));
    await ctx.db.execute(sql`insert into contacts (id, workspace_id, email, attributes)
      select e->>0, ${workspaceId}, 'p' || n || '@example.com', jsonb_build_object('renews', e->1)
      from jsonb_array_elements(${JSON.stringify([...ids])}::jsonb) with ordinality as v(e, n)`);
    const types = new Map([["renews", "date" as const]]);

    for (const compared of COMPARED_WITH)
      for (const op of ["before", "after"] as const) {
        const rule: SegmentRule = {
          match: "all",
          groups: [{ match: "all", conditions: [{ kind: "attribute", key: "renews", op, value: compared }] }],
        };
        const predicate = compileSegment(
          rule,
          { workspaceId, topicId: "tp_none", now: new Date(), contact: "c" },
          types,
        );
        const rows = await ctx.db.execute<{ id: string }>(
          sql`select c.id from contacts c where c.workspace_id = ${workspaceId} and ${predicate}`,
        );
        const matched = new Set(rows.map((row) => row.id));
        const than = Date.parse(compared);
        const why = `${op} ${compared}, seed ${SEED} (SEGMENT_SEED repeats it)`;
        for (const [id, value] of ids) {
          if (typeof value === "string" && stored.includes(value)) {
            const at = Date.parse(value);
            expect(matched.has(id), `${value} ${why}`).toBe(op === "before" ? at < than : at > than);
          } else if (typeof value !== "string" || (unshaped as string[]).includes(value)) {
            expect(matched.has(id), `${JSON.stringify(value)} ${why}`).toBe(false);
          }
        }
      }
  });

  it("the count does not fail on a stored value Date.parse reads and PostgreSQL would not (a day past the month's end) or on text that is no date", async () => {
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    const actor = systemActor("test", workspaceId);
    const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
    await defineAttribute(ctx, actor, { key: "renews", type: "date" });
    for (const [i, value] of ["2025-02-30", "hello", "2025-03-01T00:00:00+16:30", "2025-02-27"].entries()) {
      const id = newId("ct");
      await ctx.db.execute(sql`insert into contacts (id, workspace_id, email, attributes)
        values (${id}, ${workspaceId}, ${`q${i}@example.com`}, jsonb_build_object('renews', ${value}::text))`);
      await ctx.db
        .execute(sql`insert into subscriptions (id, workspace_id, contact_id, topic_id, state, source, subscribed_at)
        values (${newId("sub")}, ${workspaceId}, ${id}, ${topicId}, 'subscribed', 'api', now())`);
    }
    const rule = (op: "before" | "after"): SegmentRule => ({
      match: "all",
      groups: [{ match: "all", conditions: [{ kind: "attribute", key: "renews", op, value: "2025-03-01" }] }],
    });
    // 2025-02-30 is 2 March; 2025-03-01 at midnight in +16:30 (past the offsets PostgreSQL reads) is 28 February, 07:30 UTC.
    expect(await countSegmentRule(ctx, actor, { rule: rule("after"), topicId })).toEqual({ count: 1, more: false });
    expect(await countSegmentRule(ctx, actor, { rule: rule("before"), topicId })).toEqual({ count: 2, more: false });
  });
});

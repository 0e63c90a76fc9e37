import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { previewAudience } from "@/lib/campaigns/preview-audience";
import { createCampaign } from "@/lib/campaigns/save-campaign";
import { defineAttribute } from "@/lib/contacts/define-attribute";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { createList } from "@/lib/lists/create-list";
import { addListMembers } from "@/lib/lists/list-membership";
import { clearForSending } from "@/lib/testing/clear-for-sending";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { countSegment, countSegmentRule } from "./count-segment";
import { getSegmentOrThrow, listSegments } from "./list-segments";
import { createSegment, deleteSegment, updateSegment } from "./save-segment";
import type { SegmentRule } from "./segment-rule-schema";

const { ctx } = testCtx();

async function workspace() {
  const { workspaceId, brandId } = await seedWorkspace(ctx);
  const actor = systemActor("test", workspaceId);
  const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
  await defineAttribute(ctx, actor, { key: "plan", type: "string" });
  await defineAttribute(ctx, actor, { key: "seats", type: "number" });
  return { workspaceId, brandId, topicId, actor };
}

const one = (condition: SegmentRule["groups"][number]["conditions"][number]): SegmentRule => ({
  match: "all",
  groups: [{ match: "all", conditions: [condition] }],
});

describe("segments", () => {
  it("an attribute key the workspace has not defined is refused, naming the condition's path", async () => {
    const { actor } = await workspace();
    const rule: SegmentRule = {
      match: "any",
      groups: [
        { match: "all", conditions: [{ kind: "field", field: "email", op: "is_set" }] },
        {
          match: "all",
          conditions: [
            { kind: "attribute", key: "plan", op: "equals", value: "pro" },
            { kind: "attribute", key: "colour", op: "equals", value: "red" },
          ],
        },
      ],
    };
    await expect(createSegment(ctx, actor, { name: "Red", rule })).rejects.toMatchObject({
      code: "validation_failed",
      param: "rule.groups.1.conditions.1.key",
    });
  });

  it("an attribute is compared as its type: a number attribute takes numbers and no text operator", async () => {
    const { actor } = await workspace();
    await expect(
      createSegment(ctx, actor, {
        name: "x",
        rule: one({ kind: "attribute", key: "seats", op: "greater", value: "5" }),
      }),
    ).rejects.toMatchObject({ code: "validation_failed", param: "rule.groups.0.conditions.0.value" });
    await expect(
      createSegment(ctx, actor, {
        name: "x",
        rule: one({ kind: "attribute", key: "seats", op: "contains", value: 5 }),
      }),
    ).rejects.toMatchObject({ code: "validation_failed", param: "rule.groups.0.conditions.0.op" });
  });

  it("a rule names only the workspace's own lists: another workspace's list is refused", async () => {
    const { actor } = await workspace();
    const other = await workspace();
    const { listId } = await createList(ctx, other.actor, { brandId: other.brandId, name: "Theirs" });
    await expect(
      createSegment(ctx, actor, { name: "x", rule: one({ kind: "list", op: "in", listId }) }),
    ).rejects.toMatchObject({ code: "validation_failed", param: "rule.groups.0.conditions.0.listId" });
  });

  it("values are bound, never written into the query: text with quotes and SQL matches only itself", async () => {
    const { actor, topicId } = await workspace();
    const odd = "O'Brien'); drop table contacts; --";
    await upsertContact(ctx, actor, { email: "odd@example.com", lastName: odd, topicIds: [topicId] });
    await upsertContact(ctx, actor, { email: "plain@example.com", lastName: "Brien", topicIds: [topicId] });
    const rule = one({ kind: "field", field: "last_name", op: "equals", value: odd });
    expect(await countSegmentRule(ctx, actor, { rule, topicId })).toEqual({ count: 1, more: false });
  });

  it("a segment's count is of the chosen topic's confirmed subscribers only", async () => {
    const { actor, topicId, workspaceId, brandId } = await workspace();
    const otherTopicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
    await upsertContact(ctx, actor, { email: "a@example.com", attributes: { plan: "pro" }, topicIds: [topicId] });
    await upsertContact(ctx, actor, { email: "b@example.com", attributes: { plan: "pro" }, topicIds: [otherTopicId] });
    await upsertContact(ctx, actor, { email: "c@example.com", attributes: { plan: "free" }, topicIds: [topicId] });
    const { segmentId } = await createSegment(ctx, actor, {
      name: "Pro",
      rule: one({ kind: "attribute", key: "plan", op: "equals", value: "pro" }),
    });
    expect(await countSegment(ctx, actor, segmentId, topicId)).toEqual({ count: 1, more: false });
    expect(await countSegment(ctx, actor, segmentId, otherTopicId)).toEqual({ count: 1, more: false });
  });

  it("a missing or empty string attribute is not set and not equal to any value", async () => {
    const { actor, topicId } = await workspace();
    await upsertContact(ctx, actor, { email: "pro@example.com", attributes: { plan: "pro" }, topicIds: [topicId] });
    await upsertContact(ctx, actor, { email: "free@example.com", attributes: { plan: "free" }, topicIds: [topicId] });
    await upsertContact(ctx, actor, { email: "none@example.com", topicIds: [topicId] });
    const count = async (condition: Parameters<typeof one>[0]) =>
      (await countSegmentRule(ctx, actor, { rule: one(condition), topicId })).count;
    expect(await count({ kind: "attribute", key: "plan", op: "not_equals", value: "pro" })).toBe(2);
    expect(await count({ kind: "attribute", key: "plan", op: "is_not_set" })).toBe(1);
    expect(await count({ kind: "attribute", key: "plan", op: "equals", value: "pro" })).toBe(1);
    expect(await count({ kind: "attribute", key: "plan", op: "contains", value: "o" })).toBe(1);
  });

  it("another workspace's segment is not found, to read, change, delete or count", async () => {
    const { actor, topicId } = await workspace();
    const other = await workspace();
    const { segmentId } = await createSegment(ctx, other.actor, {
      name: "Theirs",
      rule: one({ kind: "field", field: "email", op: "is_set" }),
    });
    const notFound = { code: "segment_not_found" };
    await expect(getSegmentOrThrow(ctx, actor, segmentId)).rejects.toMatchObject(notFound);
    await expect(updateSegment(ctx, actor, segmentId, { name: "Mine" })).rejects.toMatchObject(notFound);
    await expect(deleteSegment(ctx, actor, segmentId)).rejects.toMatchObject(notFound);
    await expect(countSegment(ctx, actor, segmentId, topicId)).rejects.toMatchObject(notFound);
    expect((await listSegments(ctx, actor)).map((s) => s.id)).not.toContain(segmentId);
  });

  it("a segment a campaign uses stays: deleting it is refused; an unused one is deleted", async () => {
    const { actor, topicId, brandId } = await workspace();
    const rule = one({ kind: "field", field: "email", op: "contains", value: "@" });
    const used = await createSegment(ctx, actor, { name: "Used", rule });
    const unused = await createSegment(ctx, actor, { name: "Unused", rule });
    await createCampaign(ctx, actor, {
      brandId,
      topicId,
      segmentId: used.segmentId,
      name: "With a segment",
      subject: "Hi",
      html: "<p>Hi</p>",
    });
    await expect(deleteSegment(ctx, actor, used.segmentId)).rejects.toMatchObject({ code: "segment_in_use" });
    await deleteSegment(ctx, actor, unused.segmentId);
    expect((await listSegments(ctx, actor)).map((s) => s.name)).toEqual(["Used"]);
  });

  it("a campaign's segment narrows its audience beside its list, and the exclusion preview says how many it removed and who", async () => {
    const { actor, topicId, brandId, workspaceId } = await workspace();
    await clearForSending(ctx, workspaceId);
    const { listId } = await createList(ctx, actor, { brandId, name: "Customers" });
    for (const [email, plan, onList] of [
      ["pro-1@example.com", "pro", true],
      ["pro-2@example.com", "pro", true],
      ["free@example.com", "free", true],
      ["pro-off-list@example.com", "pro", false],
    ] as const) {
      const { contact } = await upsertContact(ctx, actor, { email, attributes: { plan }, topicIds: [topicId] });
      if (onList) await addListMembers(ctx, actor, listId, [contact.id]);
    }
    const { segmentId } = await createSegment(ctx, actor, {
      name: "Pro",
      rule: one({ kind: "attribute", key: "plan", op: "equals", value: "pro" }),
    });
    const campaign = (segmentMode: "include" | "exclude") =>
      createCampaign(ctx, actor, {
        brandId,
        topicId,
        listId,
        segmentId,
        segmentMode,
        name: segmentMode,
        subject: "Hi",
        html: "<p>Hi</p>",
      });
    const included = await previewAudience(ctx, actor, (await campaign("include")).campaignId);
    expect(included.recipients).toBe(2);
    expect(included.exclusions).toEqual(
      expect.arrayContaining([
        { reason: "not_on_list", count: 1, sample: ["pro-off-list@example.com"] },
        { reason: "not_in_segment", count: 1, sample: ["free@example.com"] },
      ]),
    );
    const excluded = await previewAudience(ctx, actor, (await campaign("exclude")).campaignId);
    expect(excluded.recipients).toBe(1);
    expect(excluded.exclusions).toEqual(
      expect.arrayContaining([
        { reason: "in_excluded_segment", count: 2, sample: ["pro-1@example.com", "pro-2@example.com"] },
      ]),
    );
  });
});

import { describe, expect, it } from "vitest";

import { systemActor, userActor } from "@/lib/actor";
import { defineAttribute } from "@/lib/contacts/define-attribute";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { createList } from "@/lib/lists/create-list";
import { addListMembers } from "@/lib/lists/list-membership";
import { createSuppression } from "@/lib/suppressions/create-suppression";
import { optOut, seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { countMissingMergeTags } from "./count-missing-merge-tags";

const { ctx } = testCtx();

/** A topic's subscribers with and without a first name and a plan, and people of the topic who are not its audience. */
async function topicWithGaps() {
  const { workspaceId, brandId, ownerUserId } = await seedWorkspace(ctx);
  const operator = systemActor("test", workspaceId);
  const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
  const { listId } = await createList(ctx, operator, { brandId, name: "Customers" });
  await defineAttribute(ctx, operator, { key: "plan", type: "string" });
  const person = async (email: string, values: { firstName?: string; plan?: string }, onList = false) => {
    const { contact } = await upsertContact(ctx, operator, {
      email,
      firstName: values.firstName,
      attributes: values.plan === undefined ? {} : { plan: values.plan },
      topicIds: [topicId],
    });
    if (onList) await addListMembers(ctx, operator, listId, [contact.id]);
    return contact;
  };
  await person("complete@example.com", { firstName: "Ada", plan: "pro" }, true);
  await person("no-name@example.com", { plan: "pro" }, true);
  await person("no-plan@example.com", { firstName: "Grace" });
  await person("blank-plan@example.com", { firstName: "Alan", plan: "" });
  await person("nothing@example.com", {}, true);
  // Nobody sends to these, so they are not counted as skipped either.
  await optOut(ctx, (await person("left@example.com", {})).id, topicId);
  await person("blocked@example.com", {});
  await createSuppression(ctx, operator, { email: "blocked@example.com" });
  return { workspaceId, brandId, topicId, listId, member: userActor(ownerUserId, workspaceId) };
}

describe("merge tags a campaign uses, counted against its audience", () => {
  it("each tag is counted on its own: how many of the topic's subscribers have no value for it and would be skipped", async () => {
    const { brandId, topicId, member } = await topicWithGaps();
    const gaps = await countMissingMergeTags(ctx, member, {
      brandId,
      topicId,
      tags: ["contact.first_name", "contact.plan", "brand.name"],
    });
    expect(gaps).toEqual({
      audience: 5,
      tags: [
        { tag: "contact.first_name", missing: 2 },
        { tag: "contact.plan", missing: 3 },
        { tag: "brand.name", missing: 0 },
      ],
    });
  });

  it("with a list, only the topic's subscribers on the list are counted", async () => {
    const { brandId, topicId, listId, member } = await topicWithGaps();
    const gaps = await countMissingMergeTags(ctx, member, {
      brandId,
      topicId,
      listId,
      tags: ["contact.first_name", "contact.plan"],
    });
    expect(gaps).toEqual({
      audience: 3,
      tags: [
        { tag: "contact.first_name", missing: 2 },
        { tag: "contact.plan", missing: 1 },
      ],
    });
  });

  it("an address is never missing, and a tag that does not exist is left to saving, which refuses it", async () => {
    const { brandId, topicId, member } = await topicWithGaps();
    const gaps = await countMissingMergeTags(ctx, member, {
      brandId,
      topicId,
      tags: ["contact.email", "contact.shoe_size", "order.id", "contact.first_name.upper"],
    });
    expect(gaps).toEqual({ audience: 5, tags: [] });
  });

  it("a topic or a brand of another workspace is not found", async () => {
    const mine = await topicWithGaps();
    const theirs = await topicWithGaps();
    await expect(
      countMissingMergeTags(ctx, mine.member, { brandId: mine.brandId, topicId: theirs.topicId, tags: [] }),
    ).rejects.toMatchObject({ code: "topic_not_found" });
    await expect(
      countMissingMergeTags(ctx, mine.member, { brandId: theirs.brandId, topicId: mine.topicId, tags: [] }),
    ).rejects.toMatchObject({ code: "brand_not_found" });
  });
});

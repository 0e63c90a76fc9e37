import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { createList } from "@/lib/lists/create-list";
import { addListMembers } from "@/lib/lists/list-membership";
import { createSuppression } from "@/lib/suppressions/create-suppression";
import { optOut, seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { CONTACT_STATUSES } from "./contact-status";
import { countContacts } from "./count-contacts";
import { listContacts, type ContactFilters } from "./list-contacts";
import { upsertContact } from "./upsert-contact";

const { ctx } = testCtx();

/** A workspace of 8 contacts: 3 on a topic, 2 on a list, one opted out, one bounced, one complained; another workspace beside it. */
async function seedAudience() {
  const { workspaceId, brandId } = await seedWorkspace(ctx);
  const actor = systemActor("test", workspaceId);
  const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
  const { listId } = await createList(ctx, actor, { brandId, name: "Customers" });
  const ids: Record<string, string> = {};
  const people: [string, string | null, string[]][] = [
    ["ada@example.com", "Ada", [topicId]],
    ["adam@example.com", "Adam", [topicId]],
    ["grace@example.com", "Grace", [topicId]],
    ["alan@example.com", "Alan", []],
    ["edsger@example.com", null, []],
    ["barbara@example.com", "Barbara", []],
    ["bounce@example.com", null, []],
    ["complain@example.com", null, []],
  ];
  for (const [email, firstName, topicIds] of people)
    ids[email] = (await upsertContact(ctx, actor, { email, firstName, topicIds })).contact.id;
  await addListMembers(ctx, actor, listId, [ids["ada@example.com"]!, ids["alan@example.com"]!]);
  await optOut(ctx, ids["barbara@example.com"]!, "all");
  await createSuppression(ctx, actor, { email: "bounce@example.com" }, "bounce");
  await createSuppression(ctx, actor, { email: "complain@example.com" }, "complaint");
  const other = await seedWorkspace(ctx);
  await upsertContact(ctx, systemActor("test", other.workspaceId), { email: "ada-elsewhere@example.com" });
  return { actor, topicId, listId };
}

/** What the pages list for these filters, walked to the end. */
async function listed(actor: ReturnType<typeof systemActor>, filters: ContactFilters) {
  return (await listContacts(ctx, actor, filters, { limit: 1000, afterId: null })).length;
}

describe("the contacts table's total", () => {
  it("the contacts total counts only the filtered contacts, the same ones the pages list", async () => {
    const { actor, topicId, listId } = await seedAudience();
    const cases: [ContactFilters, number][] = [
      [{}, 8],
      [{ search: "ad" }, 2],
      [{ topicId }, 3],
      [{ listId }, 2],
      [{ topicId, search: "ada" }, 2],
      [{ listId, status: "subscribed" }, 2],
      [{ status: "unsubscribed", search: "bar" }, 1],
    ];
    for (const [filters, expected] of cases) {
      expect(await countContacts(ctx, actor, filters), JSON.stringify(filters)).toEqual({
        count: expected,
        more: false,
      });
      expect(await listed(actor, filters)).toBe(expected);
    }
  });

  it("the total of everyone or of one status comes from the kept counters and matches the rows", async () => {
    const { actor } = await seedAudience();
    const totals = Object.fromEntries(
      await Promise.all(
        CONTACT_STATUSES.map(async (status) => [status, (await countContacts(ctx, actor, { status })).count]),
      ),
    );
    expect(totals).toEqual({ subscribed: 5, unsubscribed: 1, bounced: 1, complained: 1 });
    for (const status of CONTACT_STATUSES) expect(await listed(actor, { status })).toBe(totals[status]);
  });

  it("past the cap the total says only that there are more than the cap", async () => {
    const { actor, topicId } = await seedAudience();
    expect(await countContacts(ctx, actor, { search: "a" }, 2)).toEqual({ count: 2, more: true });
    expect(await countContacts(ctx, actor, { topicId }, 3)).toEqual({ count: 3, more: false });
  });
});

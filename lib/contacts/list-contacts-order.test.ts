import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { createSuppression } from "@/lib/suppressions/create-suppression";
import { optOut, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import type { ContactSort } from "./contact-list-query";
import { listContacts } from "./list-contacts";
import { upsertContact } from "./upsert-contact";

const { ctx } = testCtx();

/** Every page of one order, walked with each page's last row as the next one's cursor. */
async function walk(actor: ReturnType<typeof systemActor>, sort: ContactSort, limit: number): Promise<string[]> {
  const seen: string[] = [];
  let afterId: string | null = null;
  for (;;) {
    const rows = await listContacts(ctx, actor, {}, { limit, afterId, sort });
    const page = rows.slice(0, limit);
    seen.push(...page.map((contact) => contact.email));
    if (rows.length <= limit) return seen;
    afterId = page.at(-1)!.id;
  }
}

describe("the contacts table's orders", () => {
  it("pages of every order hold each contact once, in that order: newest, oldest, address A–Z and Z–A", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const actor = systemActor("test", workspaceId);
    const created = [
      "m@example.com",
      "b@example.com",
      "y@example.com",
      "a@example.com",
      "k@example.com",
      "c@example.com",
      "x@example.com",
    ];
    for (const email of created) await upsertContact(ctx, actor, { email });
    const byAddress = [...created].sort();

    expect(await walk(actor, "newest", 3)).toEqual([...created].reverse());
    expect(await walk(actor, "oldest", 3)).toEqual(created);
    expect(await walk(actor, "email", 3)).toEqual(byAddress);
    expect(await walk(actor, "email_desc", 2)).toEqual([...byAddress].reverse());
  });

  it("an address-ordered page after a contact of another workspace is empty: a cursor does not cross workspaces", async () => {
    const a = await seedWorkspace(ctx);
    const b = await seedWorkspace(ctx);
    const { contact: theirs } = await upsertContact(ctx, systemActor("test", b.workspaceId), {
      email: "a@example.com",
    });
    await upsertContact(ctx, systemActor("test", a.workspaceId), { email: "z@example.com" });
    expect(
      await listContacts(ctx, systemActor("test", a.workspaceId), {}, { limit: 10, afterId: theirs.id, sort: "email" }),
    ).toEqual([]);
  });
});

describe("the contacts table's name and status orders", () => {
  async function walkIds(actor: ReturnType<typeof systemActor>, sort: ContactSort, limit: number) {
    const seen: string[] = [];
    let afterId: string | null = null;
    for (;;) {
      const rows = await listContacts(ctx, actor, {}, { limit, afterId, sort });
      const page = rows.slice(0, limit);
      seen.push(...page.map((contact) => `${contact.email} ${contact.status}`));
      if (rows.length <= limit) return seen;
      afterId = page.at(-1)!.id;
    }
  }

  it("sorting by name pages through every contact once: A–Z by first then last name, ties in creation order, the nameless last", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const actor = systemActor("test", workspaceId);
    const people: [string, string | null, string | null][] = [
      ["no-name-1@example.com", null, null],
      ["ada-2@example.com", "Ada", "Lovelace"],
      ["grace@example.com", "grace", "Hopper"],
      ["ada-1@example.com", "Ada", "Byron"],
      ["only-last@example.com", null, "Knuth"],
      ["ada-3@example.com", "Ada", "Lovelace"],
      ["no-name-2@example.com", null, null],
      ["alan@example.com", "Alan", null],
    ];
    for (const [email, firstName, lastName] of people) await upsertContact(ctx, actor, { email, firstName, lastName });
    const byName = [
      "ada-1@example.com",
      "ada-2@example.com",
      "ada-3@example.com",
      "alan@example.com",
      "grace@example.com",
      "only-last@example.com",
      "no-name-1@example.com",
      "no-name-2@example.com",
    ];
    for (const limit of [1, 2, 3]) {
      expect(await walk(actor, "name", limit)).toEqual(byName);
      expect(await walk(actor, "name_desc", limit)).toEqual([...byName].reverse());
    }
  });

  it("sorting by status pages through every contact once, grouped as the badges read A–Z, in creation order within", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const actor = systemActor("test", workspaceId);
    const emails = ["s1@example.com", "u1@example.com", "b1@example.com", "s2@example.com", "u2@example.com"];
    const ids: string[] = [];
    for (const email of emails) ids.push((await upsertContact(ctx, actor, { email })).contact.id);
    await optOut(ctx, ids[1]!, "all");
    await optOut(ctx, ids[4]!, "all");
    await createSuppression(ctx, actor, { email: "b1@example.com" }, "bounce");
    const byStatus = [
      "b1@example.com bounced",
      "s1@example.com subscribed",
      "s2@example.com subscribed",
      "u1@example.com unsubscribed",
      "u2@example.com unsubscribed",
    ];
    for (const limit of [1, 2, 4]) {
      expect(await walkIds(actor, "status", limit)).toEqual(byStatus);
      expect(await walkIds(actor, "status_desc", limit)).toEqual([...byStatus].reverse());
    }
  });
});

import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { seedWorkspace } from "@/lib/testing/factories";
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

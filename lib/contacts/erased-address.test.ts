import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { createList } from "@/lib/lists/create-list";
import { addListMembers } from "@/lib/lists/list-membership";
import { subscribeFromForm } from "@/lib/subscriptions/subscribe-from-form";
import { importTestFixture } from "@/lib/testing/import-fixture";

import { eraseContact } from "./erase-contacts";
import { erasedAddressHash, erasedAddressHashSql } from "./erased-address";
import { upsertContact } from "./upsert-contact";

const { ctx, workspace, importCsv } = importTestFixture();

async function erasedPerson(email = "gone@example.org") {
  const w = await workspace();
  const { contact } = await upsertContact(ctx, w.actor, { email, firstName: "Gone", topicIds: [w.topicId] });
  await eraseContact(ctx, w.actor, contact.id);
  return { w, email, contactId: contact.id };
}

describe("an erased person's address", () => {
  it("is kept only as a keyed hash, the same whether Node or PostgreSQL computes it", async () => {
    const email = "zoë.o'neil+news@exämple.org";
    const [row] = (await ctx.db.execute(sql`select ${erasedAddressHashSql(sql`${email}`)} as hash`)) as unknown as {
      hash: Buffer;
    }[];
    expect(Buffer.from(row!.hash).equals(erasedAddressHash(email))).toBe(true);
    expect(erasedAddressHash(email).toString("utf8")).not.toContain("ex");
  });

  it("is refused by POST /v1/contacts and the add-contact form with contact_erased, and nothing is written", async () => {
    const { w, email } = await erasedPerson();
    await expect(upsertContact(ctx, w.actor, { email })).rejects.toMatchObject({
      code: "contact_erased",
      type: "invalid_request_error",
      param: "email",
    });
    await expect(upsertContact(ctx, w.actor, { email, topicIds: [w.topicId] })).rejects.toMatchObject({
      code: "contact_erased",
    });
    const [left] = (await ctx.db.execute(
      sql`select count(*)::int as n from contacts where workspace_id = ${w.workspaceId}`,
    )) as unknown as { n: number }[];
    expect(left!.n).toBe(0);
  });

  it("is refused by a list add naming the erased contact, with contact_erased on its index", async () => {
    const { w, contactId } = await erasedPerson();
    const { listId } = await createList(ctx, w.actor, { brandId: w.brandId, name: "Customers" });
    await expect(addListMembers(ctx, w.actor, listId, [contactId])).rejects.toMatchObject({
      code: "contact_erased",
      param: "contact_ids.0",
    });
  });

  it("is refused by an import as erased, in the dry run and the apply, while the file's other rows go in", async () => {
    const { w, email } = await erasedPerson();
    const { checked, applied } = await importCsv(w, `email,first\n${email},Gone\nstays@example.org,Stays\n`);
    expect(checked.refused).toEqual({ erased: 1 });
    expect(applied).toMatchObject({ created: 1, refused: { erased: 1 } });
  });

  it("may start afresh by the person's own signup from a form, after which the sender may update them again", async () => {
    const { w, email } = await erasedPerson();
    const outcome = await subscribeFromForm(ctx, w.actor, { topicId: w.topicId, email });
    expect(outcome.status).toBe("subscribed");
    const { created } = await upsertContact(ctx, w.actor, { email, firstName: "Back" });
    expect(created).toBe(false);
  });

  it("is refused only in the workspace that erased it", async () => {
    const { email } = await erasedPerson();
    const other = await workspace();
    const { created } = await upsertContact(ctx, other.actor, { email });
    expect(created).toBe(true);
  });
});

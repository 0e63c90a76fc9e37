import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { systemActor, userActor } from "@/lib/actor";
import { contacts, subscriptions } from "@/lib/db/schema";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { checkAttributeValues } from "./attribute-schemas";
import { addContactSchema, editContactSchema } from "./contact-schemas";
import { defineAttribute } from "./define-attribute";
import { editContact } from "./edit-contact";
import { upsertContact } from "./upsert-contact";

const { ctx } = testCtx();

const DEFINITIONS = [
  { key: "plan", type: "string" },
  { key: "seats", type: "number" },
  { key: "vip", type: "boolean" },
  { key: "renews_on", type: "date" },
] as const;

/** A workspace with the four kinds of attribute, a topic and a contact subscribed to it through the API. */
async function setup() {
  const { workspaceId, brandId, ownerUserId } = await seedWorkspace(ctx);
  const operator = systemActor("test", workspaceId);
  for (const definition of DEFINITIONS) await defineAttribute(ctx, operator, definition);
  const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
  const { contact } = await upsertContact(ctx, operator, {
    email: "ada@example.com",
    firstName: "Ada",
    attributes: { plan: "pro", seats: 3 },
    topicIds: [topicId],
  });
  return { workspaceId, topicId, contactId: contact.id, member: userActor(ownerUserId, workspaceId) };
}

const stored = async (contactId: string) =>
  (await ctx.db.select().from(contacts).where(eq(contacts.id, contactId)))[0]!;

/** The API's refusal of these attributes (POST /v1/contacts), as `param` and message. */
async function apiRefusal(workspaceId: string, attributes: Record<string, unknown>) {
  const error = await upsertContact(ctx, systemActor("test", workspaceId), {
    email: "someone-else@example.com",
    attributes,
  }).catch((caught: unknown) => caught);
  return { param: (error as { param?: string }).param, message: (error as Error).message };
}

describe("editing a contact from the dashboard", () => {
  it("a member changes the name and custom attributes; a null attribute clears it and attributes not named stay", async () => {
    const { contactId, member } = await setup();
    await editContact(ctx, member, {
      contactId,
      firstName: " Grace ",
      lastName: "Hopper",
      attributes: { seats: 12, vip: true, renews_on: "2026-09-01", plan: null },
    });
    expect(await stored(contactId)).toMatchObject({
      firstName: "Grace",
      lastName: "Hopper",
      attributes: { seats: 12, vip: true, renews_on: "2026-09-01" },
    });
    await editContact(ctx, member, { contactId, firstName: "", lastName: "Hopper" });
    expect(await stored(contactId)).toMatchObject({
      firstName: null,
      attributes: { seats: 12, vip: true, renews_on: "2026-09-01" },
    });
  });

  it("attributes are checked as the API checks them: an undefined key or a value of the wrong type is validation_failed on attributes.<key>, and nothing changes", async () => {
    const { workspaceId, contactId, member } = await setup();
    const before = await stored(contactId);
    for (const attributes of [
      { seats: "twelve" },
      { vip: "yes" },
      { renews_on: "next spring" },
      { plan: 7 },
      { shoe_size: 44 },
    ]) {
      const refused = await editContact(ctx, member, {
        contactId,
        firstName: "Changed",
        lastName: "",
        attributes,
      }).catch((error: unknown) => error);
      expect(refused).toMatchObject({ code: "validation_failed", param: `attributes.${Object.keys(attributes)[0]}` });
      expect({ param: (refused as { param: string }).param, message: (refused as Error).message }).toEqual(
        await apiRefusal(workspaceId, attributes),
      );
    }
    expect(await stored(contactId)).toEqual(before);
  });

  it("the contact forms check attribute values in the browser with the API's rules, beside attributes.<key>", async () => {
    const { workspaceId } = await setup();
    for (const attributes of [{ seats: "twelve" }, { vip: "yes" }, { renews_on: "2026-13-45" }, { shoe_size: 1 }]) {
      const browser = editContactSchema
        .superRefine(checkAttributeValues([...DEFINITIONS]))
        .safeParse({ contactId: "ct_x", firstName: "", lastName: "", attributes });
      const issue = browser.error!.issues[0]!;
      const api = await apiRefusal(workspaceId, attributes);
      expect(issue.path.join(".")).toBe(api.param);
      expect(`${api.param}: ${issue.message}.`).toBe(api.message);
    }
    const good = { seats: 2.5, vip: false, renews_on: "2026-09-01T10:00:00Z", plan: "team" };
    expect(
      editContactSchema
        .superRefine(checkAttributeValues([...DEFINITIONS]))
        .safeParse({ contactId: "ct_x", firstName: "", lastName: "", attributes: good }).success,
    ).toBe(true);
    // The add-contact form leaves an empty field out rather than sending it.
    expect(
      addContactSchema
        .superRefine(checkAttributeValues([...DEFINITIONS]))
        .safeParse({ email: "new@example.com", topicIds: [], attributes: { seats: undefined } }).success,
    ).toBe(true);
  });

  it("a contact's time zone is an IANA name, stored as the zone database names it; empty clears it, left out keeps it", async () => {
    const { contactId, member } = await setup();
    await editContact(ctx, member, { contactId, firstName: "Ada", lastName: "", timeZone: " europe/berlin " });
    expect((await stored(contactId)).timeZone).toBe("Europe/Berlin");
    await editContact(ctx, member, { contactId, firstName: "Ada", lastName: "" });
    expect((await stored(contactId)).timeZone).toBe("Europe/Berlin");
    await editContact(ctx, member, { contactId, firstName: "Ada", lastName: "", timeZone: "" });
    expect((await stored(contactId)).timeZone).toBeNull();
  });

  it("a time zone the zone database does not know, or an offset, is refused beside timeZone and nothing changes", async () => {
    const { contactId, member } = await setup();
    await editContact(ctx, member, { contactId, firstName: "Ada", lastName: "", timeZone: "America/New_York" });
    for (const timeZone of ["Mars/Olympus_Mons", "+01:00", "Berlin time"]) {
      await expect(
        editContact(ctx, member, { contactId, firstName: "Ada", lastName: "", timeZone }),
      ).rejects.toMatchObject({ code: "validation_failed", param: "timeZone" });
      // The form checks it in the browser with the same rule.
      expect(editContactSchema.safeParse({ contactId, firstName: "", lastName: "", timeZone }).success).toBe(false);
    }
    expect((await stored(contactId)).timeZone).toBe("America/New_York");
  });

  it("editing changes no subscription, and is allowed for a contact who opted out", async () => {
    const { topicId, contactId, member } = await setup();
    await ctx.db.update(contacts).set({ optedOutAt: ctx.clock.now() }).where(eq(contacts.id, contactId));
    const subscriptionsBefore = await ctx.db.select().from(subscriptions).where(eq(subscriptions.contactId, contactId));
    await editContact(ctx, member, { contactId, firstName: "Ada", lastName: "Lovelace", attributes: { vip: true } });
    expect(await stored(contactId)).toMatchObject({ lastName: "Lovelace", attributes: { vip: true } });
    expect(await ctx.db.select().from(subscriptions).where(eq(subscriptions.contactId, contactId))).toEqual(
      subscriptionsBefore,
    );
    expect(subscriptionsBefore).toMatchObject([{ topicId, state: "subscribed" }]);
  });

  it("a contact added from the dashboard takes attribute values, checked as the API checks them", async () => {
    const { workspaceId, member } = await setup();
    const { contact } = await upsertContact(ctx, member, {
      email: "walk-in@example.com",
      attributes: { plan: "starter", vip: false },
    });
    expect(contact.attributes).toEqual({ plan: "starter", vip: false });
    await expect(
      upsertContact(ctx, member, { email: "other@example.com", attributes: { seats: "many" } }),
    ).rejects.toMatchObject({ code: "validation_failed", param: "attributes.seats" });
    expect(
      (await ctx.db.select().from(contacts).where(eq(contacts.workspaceId, workspaceId))).map((row) => row.email),
    ).not.toContain("other@example.com");
  });
});

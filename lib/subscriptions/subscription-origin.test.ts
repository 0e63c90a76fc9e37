import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { apiKeyActor } from "@/lib/actor";
import { resubscribe } from "@/lib/consent/resubscribe";
import { exportContactData } from "@/lib/contacts/export-contact-data";
import { exportContactsCsv } from "@/lib/contacts/export-contacts";
import { getContactDetailsOrThrow } from "@/lib/contacts/get-contact-details";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { contacts, subscriptions, users } from "@/lib/db/schema";
import { parseEnv } from "@/lib/env";
import { createSignupForm } from "@/lib/forms/save-signup-form";
import { SIGNUP_FORM_DEFAULTS } from "@/lib/forms/signup-form-schemas";
import { submitSignupForm } from "@/lib/forms/submit-signup-form";
import { collectCsv } from "@/lib/testing/collect-csv";
import { optOut, seedKey, seedTopic } from "@/lib/testing/factories";
import { importTestFixture } from "@/lib/testing/import-fixture";

import { describeSubscriptionSource } from "./describe-subscription-source";
import { subscribeFromForm } from "./subscribe-from-form";

const { ctx, workspace, importCsv } = importTestFixture();
const SITE = "https://www.sender.example";

async function subscriptionsOf(workspaceId: string, email: string) {
  const [contact] = await ctx.db
    .select({ id: contacts.id })
    .from(contacts)
    .where(and(eq(contacts.workspaceId, workspaceId), eq(contacts.email, email)));
  const rows = await ctx.db.select().from(subscriptions).where(eq(subscriptions.contactId, contact!.id));
  return { contactId: contact!.id, rows };
}

describe("consent source in full", () => {
  it("a form signup records its form: its id and name, on subscribed and pending subscriptions alike", async () => {
    const w = await workspace();
    const pendingTopic = await seedTopic(ctx, w.workspaceId, w.brandId, { requiresConfirmation: true });
    const { keyId } = await seedKey(ctx, w.workspaceId, { kind: "publishable", origins: [SITE], name: "Site" });
    const { formId } = await createSignupForm(ctx, w.actor, {
      ...SIGNUP_FORM_DEFAULTS,
      name: "Shop footer",
      brandId: w.brandId,
      topicIds: [w.topicId, pendingTopic],
      apiKeyId: keyId,
    });
    await submitSignupForm(
      ctx,
      { formId, origin: SITE, ip: null, values: { email: "form@example.com", topic_ids: [w.topicId, pendingTopic] } },
      parseEnv({ APP_URL: "https://app.example/" }),
    );
    const { contactId, rows } = await subscriptionsOf(w.workspaceId, "form@example.com");
    const origin = { kind: "signup_form", form_id: formId, form_name: "Shop footer" };
    expect(rows.map((s) => [s.topicId, s.state, s.origin])).toEqual(
      expect.arrayContaining([
        [w.topicId, "subscribed", origin],
        [pendingTopic, "pending", origin],
      ]),
    );

    const details = await getContactDetailsOrThrow(ctx, w.actor, contactId);
    const shown = details.subscriptions.find((s) => s.topicId === w.topicId)!;
    expect(describeSubscriptionSource(shown.source, shown.origin)).toBe(`Signup form “Shop footer” (${formId})`);
  });

  it("an API subscribe records its key: its id and name, from POST /v1/contacts and POST /v1/subscribe", async () => {
    const w = await workspace();
    const { keyId } = await seedKey(ctx, w.workspaceId, { name: "Website" });
    const actor = apiKeyActor({ keyId, workspaceId: w.workspaceId, brandId: null, mode: "live" });
    await upsertContact(ctx, actor, { email: "api@example.com", topicIds: [w.topicId] });
    const pendingTopic = await seedTopic(ctx, w.workspaceId, w.brandId, { requiresConfirmation: true });
    await subscribeFromForm(ctx, actor, { topicId: pendingTopic, email: "api@example.com" });

    const { contactId, rows } = await subscriptionsOf(w.workspaceId, "api@example.com");
    const origin = { kind: "api_key", key_id: keyId, key_name: "Website" };
    expect(rows.map((s) => [s.topicId, s.source, s.origin])).toEqual(
      expect.arrayContaining([
        [w.topicId, "api", origin],
        [pendingTopic, null, origin],
      ]),
    );
    const details = await getContactDetailsOrThrow(ctx, w.actor, contactId);
    const shown = details.subscriptions.find((s) => s.topicId === w.topicId)!;
    expect(describeSubscriptionSource(shown.source, shown.origin)).toBe(`API key Website (${keyId})`);
  });

  it("a member's subscription in the dashboard records the member who asserted consent", async () => {
    const w = await workspace();
    const [owner] = await ctx.db.select({ email: users.email }).from(users).where(eq(users.id, w.ownerUserId));
    await upsertContact(ctx, w.actor, { email: "desk@example.com", topicIds: [w.topicId] });
    const { contactId, rows } = await subscriptionsOf(w.workspaceId, "desk@example.com");
    expect(rows.map((s) => [s.source, s.origin])).toEqual([
      ["dashboard", { kind: "member", user_id: w.ownerUserId, member: owner!.email }],
    ]);
    const details = await getContactDetailsOrThrow(ctx, w.actor, contactId);
    const shown = details.subscriptions[0]!;
    expect(describeSubscriptionSource(shown.source, shown.origin)).toBe(
      `Added in the dashboard by ${owner!.email}, consent asserted`,
    );
  });

  it("an imported subscription records file, row and the asserting member, with when; the access-request export and the contacts CSV carry it", async () => {
    const w = await workspace();
    const [owner] = await ctx.db.select({ email: users.email }).from(users).where(eq(users.id, w.ownerUserId));
    const { importId } = await importCsv(w, "email\nfirst@example.com\nsecond@example.com\n", {
      topicIds: [w.topicId],
      consentAsserted: true,
    });
    const { contactId, rows } = await subscriptionsOf(w.workspaceId, "second@example.com");
    expect(rows[0]!.source).toBe("import");
    expect(rows[0]!.origin).toEqual({
      kind: "import",
      import_id: importId,
      file_name: "people.csv",
      row: 3,
      asserted_by_user_id: w.ownerUserId,
      asserted_by: owner!.email,
      asserted_at: expect.stringMatching(/Z$/),
    });
    const assertedOn = (rows[0]!.origin as { asserted_at: string }).asserted_at.slice(0, 10);

    const details = await getContactDetailsOrThrow(ctx, w.actor, contactId);
    const shown = details.subscriptions[0]!;
    expect(describeSubscriptionSource(shown.source, shown.origin)).toBe(
      `Import people.csv, row 3, consent asserted by ${owner!.email} on ${assertedOn}`,
    );

    const data = await exportContactData(ctx, w.actor, contactId);
    expect(data.subscriptions[0]).toMatchObject({
      source: "import",
      origin: { kind: "import", import_id: importId, file_name: "people.csv", row: 3, asserted_by: owner!.email },
    });

    const csv = await collectCsv(exportContactsCsv(ctx, w.actor, {}));
    expect(csv.split("\n")[0]).toMatch(/:origin$/);
    const line = csv.split("\n").find((l) => l.includes("second@example.com"))!;
    expect(line).toContain(`""import_id"": ""${importId}""`);
    expect(line).toContain(`""row"": 3`);
  });

  it("a person's own resubscription from a link is consent from their mailbox: the earlier origin is dropped", async () => {
    const w = await workspace();
    const { keyId } = await seedKey(ctx, w.workspaceId, { name: "Website" });
    const actor = apiKeyActor({ keyId, workspaceId: w.workspaceId, brandId: null, mode: "live" });
    await upsertContact(ctx, actor, { email: "back@example.com", topicIds: [w.topicId] });
    const { contactId } = await subscriptionsOf(w.workspaceId, "back@example.com");
    await optOut(ctx, contactId, w.topicId);
    await resubscribe(ctx, { contactId, topicId: w.topicId });
    const { rows } = await subscriptionsOf(w.workspaceId, "back@example.com");
    expect(rows.map((s) => [s.state, s.source, s.origin])).toEqual([["subscribed", "double_opt_in", null]]);
  });

  it("a subscription made before its origin was kept shows its source alone, as before", () => {
    expect(describeSubscriptionSource("import", null)).toBe("Import (consent asserted)");
    expect(describeSubscriptionSource("double_opt_in", null)).toBe("Confirmed by email (double opt-in)");
    expect(describeSubscriptionSource(null, null)).toBe("—");
  });
});

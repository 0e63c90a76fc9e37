import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { systemActor, userActor } from "@/lib/actor";
import { createCampaign } from "@/lib/campaigns/save-campaign";
import { snapshotAudience } from "@/lib/campaigns/snapshot-audience";
import {
  campaigns,
  events,
  imports,
  memberships,
  reportCampaignCounters,
  sends,
  subscriptions,
  users,
  webhookAttempts,
  webhookDeliveries,
  webhookEndpoints,
} from "@/lib/db/schema";
import { receiveProviderEvent } from "@/lib/deliverability/receive-provider-event";
import { newId } from "@/lib/ids";
import { checkImport } from "@/lib/imports/check-import";
import { checkImportSchema } from "@/lib/imports/import-schemas";
import { receiveImport } from "@/lib/imports/receive-import";
import { createList } from "@/lib/lists/create-list";
import { addListMembers } from "@/lib/lists/list-membership";
import { simulateOutcome } from "@/lib/mail/simulate-outcome";
import { localTransport } from "@/lib/mail/transports/local-transport";
import { getCampaignReportOrThrow } from "@/lib/reports/get-campaign-report";
import { subscribeFromForm } from "@/lib/subscriptions/subscribe-from-form";
import { unsubscribeOnBehalf } from "@/lib/subscriptions/unsubscribe-on-behalf";
import { createSuppression } from "@/lib/suppressions/create-suppression";
import { deleteSuppression } from "@/lib/suppressions/delete-suppression";
import { seedAcceptedSend } from "@/lib/testing/campaign-fixture";
import { seedTopic } from "@/lib/testing/factories";
import { bytesOf } from "@/lib/testing/import-fixture";
import { testCtx } from "@/lib/testing/test-context";
import { recordClick, recordOpen } from "@/lib/tracking/record-engagement";

import { defineAttribute } from "./define-attribute";
import { eraseContact, eraseContactConfirmed } from "./erase-contacts";
import { upsertContact } from "./upsert-contact";

const { ctx } = testCtx();

const EMAIL = "adaline.erasure@example.org";
const IP = "203.0.113.77";
const USER_AGENT = "ErasureProbe/1.0";
/** What identifies the person, as any column might hold it: the address (also in a link), names, IP, browser. */
const TRACES = [EMAIL, EMAIL.replace("@", "%40"), "Adaline", "Quillfeather", IP, USER_AGENT];

/**
 * Every table and column that can hold an erased person's address, name, IP or user agent. The
 * seeded person reaches each of them before the erasure; a column outside this list that holds a
 * trace fails the test, so a new such column must join the list (and the erasure).
 */
const PERSONAL_COLUMNS = [
  "confirmation_requests.email",
  "contacts.attributes",
  "contacts.email",
  "contacts.first_name",
  "contacts.last_name",
  "events.data",
  "import_file_parts.data",
  "import_rows.email",
  "import_rows.first_name",
  "imports.preview",
  "mail_messages.raw",
  "mail_messages.subject",
  "mail_messages.to_address",
  "opt_outs_on_behalf.note",
  "provider_events.event",
  "provider_events.raw",
  "sends.email",
  "subscriptions.confirmed_ip",
  "subscriptions.confirmed_user_agent",
  "suppression_lifts.email",
  "suppression_lifts.lift_reason",
  "suppressions.email",
  "webhook_attempts.response_excerpt",
];

/** The columns of every table (text, JSON, arrays, bytes) in which a trace of the person appears. */
async function columnsHoldingTraces(): Promise<string[]> {
  const columns = (await ctx.db.execute(sql`
    select table_name, column_name, data_type from information_schema.columns
    where table_schema = current_schema() and data_type in ('text', 'character varying', 'jsonb', 'json', 'ARRAY', 'bytea')
    order by 1, 2`)) as unknown as { table_name: string; column_name: string; data_type: string }[];
  const found: string[] = [];
  for (const { table_name, column_name, data_type } of columns) {
    const column = sql.identifier(column_name);
    const asText = data_type === "bytea" ? sql`encode(${column}, 'escape')` : sql`${column}::text`;
    const [hit] = (await ctx.db.execute(sql`
      select 1 from ${sql.identifier(table_name)}
      where ${asText} ilike any(array[${sql.join(
        TRACES.map((trace) => sql`${`%${trace}%`}`),
        sql`, `,
      )}]) limit 1`)) as unknown[];
    if (hit) found.push(`${table_name}.${column_name}`);
  }
  return found;
}

/** A person who went through everything the service records: see PERSONAL_COLUMNS. */
async function seedPerson() {
  const { workspaceId, campaignId, contactId, send } = await seedAcceptedSend(ctx, EMAIL);
  const [campaign] = await ctx.db.select().from(campaigns).where(eq(campaigns.id, campaignId));
  const { brandId, topicId } = campaign!;
  const operator = systemActor("test", workspaceId);
  const [{ owner }] = (await ctx.db
    .select({ owner: users })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.workspaceId, workspaceId))) as [{ owner: typeof users.$inferSelect }];
  const member = userActor(owner.id, workspaceId);

  await defineAttribute(ctx, operator, { key: "street", type: "string" });
  await upsertContact(ctx, operator, {
    email: EMAIL,
    firstName: "Adaline",
    lastName: "Quillfeather",
    attributes: { street: "1 Quillfeather Lane" },
  });
  // A webhook receiver that echoed the payload back: its answer is kept as an excerpt.
  const endpointId = newId("wh");
  await ctx.db
    .insert(webhookEndpoints)
    .values({ id: endpointId, workspaceId, url: "https://hooks.example.com/in", signingSecret: "whsec_x" });

  // A second campaign under way, whose send to the person is still queued.
  const { campaignId: ongoingId } = await createCampaign(ctx, operator, {
    brandId,
    topicId,
    name: "Ongoing",
    subject: "Hi",
    html: "<p>Hi</p>",
  });
  await ctx.db.update(campaigns).set({ status: "sending" }).where(eq(campaigns.id, ongoingId));
  await snapshotAudience(ctx, ongoingId);

  // Opened, and a link with their address in it followed.
  await recordOpen(ctx, send.id, { country: "NZ" });
  await recordClick(ctx, send.id, {
    url: `https://shop.example.com/welcome?who=${EMAIL.replace("@", "%40")}`,
    country: "NZ",
    deviceType: "desktop",
    client: "Thunderbird",
  });

  // Signed up to a double opt-in topic and confirmed it from their browser.
  const pendingTopic = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: true });
  const { subscriptionId } = await subscribeFromForm(ctx, operator, { topicId: pendingTopic, email: EMAIL });
  await ctx.db
    .update(subscriptions)
    .set({ state: "subscribed", confirmedAt: ctx.clock.now(), confirmedIp: IP, confirmedUserAgent: USER_AGENT })
    .where(eq(subscriptions.id, subscriptionId!));

  const { listId } = await createList(ctx, operator, { brandId, name: "Customers" });
  await addListMembers(ctx, operator, listId, [contactId]);
  const otherTopic = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
  await upsertContact(ctx, operator, { email: EMAIL, topicIds: [otherTopic] });
  await unsubscribeOnBehalf(ctx, member, { contactId, topicId: otherTopic, note: "Adaline phoned to leave it" });

  // Suppressed by hand and lifted, then a complaint from the mailbox, and a bounce report quoting them.
  const { suppression } = await createSuppression(ctx, operator, { email: EMAIL, note: "Adaline asked for a pause" });
  await deleteSuppression(ctx, operator, suppression.id, "Adaline wrote back");
  const { providerMessageId } = await localTransport().send(ctx, {
    workspaceId,
    idempotencyKey: send.id,
    from: { name: "Shop", address: "news@shop.example.com" },
    to: EMAIL,
    subject: "Hello Adaline",
    html: "<p>Hello Adaline</p>",
    text: "Hello Adaline",
    headers: {},
  });
  await simulateOutcome(ctx, operator, providerMessageId, { type: "complained" });
  await receiveProviderEvent(ctx, {
    provider: "smtp",
    providerEventId: "<dsn-1@mx.example.org>",
    raw: `Final-Recipient: rfc822; ${EMAIL}\r\nAction: failed\r\nStatus: 5.1.1\r\n\r\nTo: Adaline Quillfeather <${EMAIL}>`,
    event: { type: "bounced", bounceType: "permanent", sendId: send.id, occurredAt: ctx.clock.now() },
  });

  // The receiver answered the delivery of the person's click by quoting the address.
  const [delivery] = await ctx.db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(events.type, "email.clicked")));
  await ctx.db.insert(webhookAttempts).values({
    id: newId("wha"),
    deliveryId: delivery!.id,
    attemptedAt: ctx.clock.now(),
    statusCode: 400,
    responseExcerpt: `unknown subscriber ${EMAIL}`,
  });

  // A file checked but not applied, and one only uploaded.
  const csv = `email,first\n${EMAIL},Adaline\nsomeone@example.org,Someone\n`;
  const { importId: checkedImport } = await receiveImport(ctx, member, { fileName: "a.csv", body: bytesOf(csv) });
  await checkImport(ctx, member, checkedImport, checkImportSchema.parse({ mapping: ["email", "first_name"] }));
  const { importId: uploadedImport } = await receiveImport(ctx, member, { fileName: "b.csv", body: bytesOf(csv) });

  return { workspaceId, campaignId, ongoingId, contactId, member, checkedImport, uploadedImport };
}

describe("erasing a contact", () => {
  it("leaves no trace of the person's address, name, IP or user agent in any table, and the list of such columns is complete", async () => {
    const { contactId, member } = await seedPerson();
    expect(await columnsHoldingTraces()).toEqual(PERSONAL_COLUMNS);

    await eraseContact(ctx, member, contactId);

    expect(await columnsHoldingTraces()).toEqual([]);
  });

  it("keeps the campaign's figures as they were", async () => {
    const { workspaceId, campaignId, contactId, member } = await seedPerson();
    const counters = () =>
      ctx.db.select().from(reportCampaignCounters).where(eq(reportCampaignCounters.campaignId, campaignId));
    // Reading the report folds the opens and clicks still queued into the counters first.
    const reportBefore = (await getCampaignReportOrThrow(ctx, systemActor("test", workspaceId), campaignId))!;
    const before = await counters();

    await eraseContact(ctx, member, contactId);

    expect(await counters()).toEqual(before);
    const reportAfter = (await getCampaignReportOrThrow(ctx, systemActor("test", workspaceId), campaignId))!;
    expect(reportAfter.row).toEqual(reportBefore.row);
    expect(reportAfter.topLinks.map((link) => [link.clicks, link.people])).toEqual(
      reportBefore.topLinks.map((link) => [link.clicks, link.people]),
    );
  });

  it("cancels the person's queued send of a campaign under way, which is never sent", async () => {
    const { ongoingId, contactId, member } = await seedPerson();

    const { cancelledSends } = await eraseContact(ctx, member, contactId);

    expect(cancelledSends).toBe(1);
    const [send] = await ctx.db.select().from(sends).where(eq(sends.campaignId, ongoingId));
    expect(send).toMatchObject({ state: "cancelled", failureReason: "erased", email: "" });
  });

  it("cancels an import not yet applied whose file holds the person, keeping their row refused as erased", async () => {
    const { contactId, member, checkedImport, uploadedImport } = await seedPerson();

    await eraseContact(ctx, member, contactId);

    const rows = await ctx.db
      .select()
      .from(imports)
      .where(and(eq(imports.workspaceId, member.workspaceId)));
    for (const id of [checkedImport, uploadedImport])
      expect(rows.find((row) => row.id === id)).toMatchObject({
        status: "cancelled",
        error: expect.stringMatching(/erased/),
      });
    const staged = (await ctx.db.execute(
      sql`select email, refusal from import_rows where import_id = ${checkedImport} order by row_number`,
    )) as unknown as { email: string; refusal: string | null }[];
    expect(staged).toEqual([
      { email: "", refusal: "erased" },
      { email: "someone@example.org", refusal: null },
    ]);
  });

  it("is not found for another workspace's contact, and changes nothing there", async () => {
    const { contactId } = await seedPerson();
    const { workspaceId: other, contactId: theirs } = await seedAcceptedSend(ctx, "someone.else@example.org");
    await expect(eraseContact(ctx, systemActor("test", other), contactId)).rejects.toMatchObject({
      code: "contact_not_found",
    });
    expect(theirs).toBeTruthy();
    const [still] = (await ctx.db.execute(sql`select 1 from contacts where id = ${contactId}`)) as unknown[];
    expect(still).toBeTruthy();
  });

  it("from the contact's page needs the person's address typed, and erases nothing on a mismatch", async () => {
    const { contactId, member } = await seedPerson();
    await expect(
      eraseContactConfirmed(ctx, member, { contactId, confirmation: "someone.else@example.org" }),
    ).rejects.toMatchObject({ code: "validation_failed", param: "confirmation" });
    const [still] = (await ctx.db.execute(sql`select 1 from contacts where id = ${contactId}`)) as unknown[];
    expect(still).toBeTruthy();

    const { erased } = await eraseContactConfirmed(ctx, member, {
      contactId,
      confirmation: ` ${EMAIL.toUpperCase()} `,
    });
    expect(erased).toBe(1);
  });
});

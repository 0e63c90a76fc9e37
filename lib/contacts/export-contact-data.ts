import "server-only";

import { and, asc, eq, inArray, sql, type Column } from "drizzle-orm";

import { actorLabelText, inActorWorkspace, requireActorWorkspace, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import {
  campaigns,
  confirmationRequests,
  contacts,
  events,
  listMembers,
  lists,
  optOutsOnBehalf,
  sends,
  signupForms,
  signupFormSubmissions,
  subscriptions,
  topics,
  users,
} from "@/lib/db/schema";
import { notFound } from "@/lib/errors";
import { suppressionsOfAddress, type SuppressionEvidence } from "@/lib/suppressions/suppression-evidence";

import { contactStatusSql } from "./contact-status";

const iso = (at: Date | null) => at?.toISOString() ?? null;
/** Columns as they are, their timestamps as the API prints them (snake_case keys are the caller's). */
const isoDates = <T extends Record<string, unknown>>(row: T) =>
  Object.fromEntries(
    Object.entries(row).map(([key, value]) => [key, value instanceof Date ? value.toISOString() : value]),
  );

/** The provider's report behind a bounce or complaint suppression. */
function evidenceJson(evidence: SuppressionEvidence | null) {
  if (!evidence) return null;
  return {
    provider: evidence.provider,
    received_at: iso(evidence.receivedAt),
    type: evidence.type,
    bounce_type: evidence.bounceType,
    status_code: evidence.statusCode,
    wording: evidence.wording,
    report: evidence.raw,
  };
}

/**
 * Everything the workspace holds about one contact, for the person's access request: the fields
 * and attributes, every subscription with its evidence of consent (the confirmation mails, the
 * signup form, the opt-outs a member made for them), list memberships, the suppressions of the
 * address (with the provider's report behind each) and those lifted, every send with what became
 * of it, and every event about them. Whole, not the contact page's latest 50. Another workspace's
 * contact is not found. The document's keys are snake_case and its times ISO 8601, as in the API.
 */
export async function exportContactData(ctx: Ctx, actor: Actor, contactId: string) {
  const workspaceId = requireActorWorkspace(actor);
  const [contact] = await ctx.db
    .select({
      id: contacts.id,
      email: contacts.email,
      first_name: contacts.firstName,
      last_name: contacts.lastName,
      time_zone: contacts.timeZone,
      status: contactStatusSql(),
      attributes: contacts.attributes,
      opted_out_at: contacts.optedOutAt,
      created_at: contacts.createdAt,
      updated_at: contacts.updatedAt,
    })
    .from(contacts)
    .where(and(eq(contacts.id, contactId), inActorWorkspace(actor, contacts.workspaceId)));
  if (!contact) throw notFound("contact_not_found", `No contact ${contactId}.`);
  const mine = (column: Column) => eq(column, workspaceId);

  const [subscriptionRows, onBehalf, listRows, suppression, sendRows, eventRows] = await Promise.all([
    ctx.db
      .select({
        id: subscriptions.id,
        topic_id: subscriptions.topicId,
        topic_name: topics.name,
        brand_id: topics.brandId,
        state: subscriptions.state,
        source: subscriptions.source,
        // The signup form, API key or import row (file, row, who asserted consent, when) it came from.
        origin: subscriptions.origin,
        confirmation_sent_at: subscriptions.confirmationSentAt,
        confirmed_at: subscriptions.confirmedAt,
        confirmed_ip: subscriptions.confirmedIp,
        confirmed_user_agent: subscriptions.confirmedUserAgent,
        subscribed_at: subscriptions.subscribedAt,
        unsubscribed_at: subscriptions.unsubscribedAt,
        created_at: subscriptions.createdAt,
      })
      .from(subscriptions)
      .innerJoin(topics, eq(topics.id, subscriptions.topicId))
      .where(and(eq(subscriptions.contactId, contactId), mine(subscriptions.workspaceId)))
      .orderBy(asc(subscriptions.id)),
    ctx.db
      .select({ row: optOutsOnBehalf, madeByEmail: users.email })
      .from(optOutsOnBehalf)
      .leftJoin(users, eq(optOutsOnBehalf.madeBy, sql`'user:' || ${users.id}`))
      .where(and(eq(optOutsOnBehalf.contactId, contactId), mine(optOutsOnBehalf.workspaceId)))
      .orderBy(asc(optOutsOnBehalf.id)),
    ctx.db
      .select({ id: lists.id, name: lists.name, brand_id: lists.brandId, added_at: listMembers.addedAt })
      .from(listMembers)
      .innerJoin(lists, eq(lists.id, listMembers.listId))
      .where(and(eq(listMembers.contactId, contactId), mine(listMembers.workspaceId)))
      .orderBy(asc(lists.name)),
    suppressionsOfAddress(ctx, actor, contact.email),
    // As the contact's page reads them: sends carry no contact index (see the sends schema).
    ctx.db
      .select({
        id: sends.id,
        campaign_id: sends.campaignId,
        campaign_name: campaigns.name,
        email: sends.email,
        state: sends.state,
        failure_reason: sends.failureReason,
        accepted_at: sends.acceptedAt,
        delivered_at: sends.deliveredAt,
        bounced_at: sends.bouncedAt,
        bounce_type: sends.bounceType,
        complained_at: sends.complainedAt,
        opened_at: sends.openedAt,
        clicked_at: sends.clickedAt,
        unsubscribed_at: sends.unsubscribedAt,
        created_at: sends.createdAt,
      })
      .from(sends)
      .innerJoin(campaigns, eq(campaigns.id, sends.campaignId))
      .where(and(eq(sends.contactId, contactId), mine(sends.workspaceId)))
      .orderBy(asc(sends.id)),
    ctx.db
      .select({ id: events.id, type: events.type, occurred_at: events.occurredAt, data: events.data })
      .from(events)
      .where(and(mine(events.workspaceId), sql`(${events.data}->>'contact_id') collate "C" = ${contactId}`))
      .orderBy(asc(events.id)),
  ]);

  const subscriptionIds = subscriptionRows.map((row) => row.id);
  const [mails, formSignups] =
    subscriptionIds.length === 0
      ? [[], []]
      : await Promise.all([
          ctx.db
            .select()
            .from(confirmationRequests)
            .where(
              and(
                inArray(confirmationRequests.subscriptionId, subscriptionIds),
                mine(confirmationRequests.workspaceId),
              ),
            )
            .orderBy(asc(confirmationRequests.requestedAt)),
          ctx.db
            .select({ formId: signupForms.id, formName: signupForms.name, submission: signupFormSubmissions })
            .from(signupFormSubmissions)
            .innerJoin(signupForms, eq(signupForms.id, signupFormSubmissions.formId))
            .where(
              and(
                mine(signupForms.workspaceId),
                sql`${signupFormSubmissions.subscriptionIds} && array[${sql.join(
                  subscriptionIds.map((id) => sql`${id}`),
                  sql`, `,
                )}]::text[]`,
              ),
            )
            .orderBy(asc(signupFormSubmissions.submittedAt)),
        ]);

  return {
    generated_at: ctx.clock.now().toISOString(),
    workspace_id: workspaceId,
    contact: isoDates(contact),
    subscriptions: subscriptionRows.map((row) => ({
      ...isoDates(row),
      confirmation_mails: mails
        .filter((mail) => mail.subscriptionId === row.id)
        .map((mail) => ({
          to: mail.email,
          requested_at: iso(mail.requestedAt),
          mailed_at: iso(mail.mailedAt),
          not_mailed_because: mail.skippedReason,
        })),
      signup_forms: formSignups
        .filter(({ submission }) => submission.subscriptionIds.includes(row.id))
        .map(({ formId, formName, submission }) => ({
          form_id: formId,
          form_name: formName,
          submitted_at: iso(submission.submittedAt),
        })),
    })),
    opt_outs_on_behalf: onBehalf.map(({ row, madeByEmail }) => ({
      scope: row.scope,
      topic_id: row.topicId,
      made_by: actorLabelText(row.madeBy, madeByEmail),
      note: row.note,
      event_id: row.eventId,
      made_at: iso(row.createdAt),
    })),
    lists: listRows.map(isoDates),
    suppressions: suppression.current.map((row) => ({
      id: row.id,
      email: row.email,
      domain: row.domain,
      reason: row.reason,
      note: row.note,
      created_at: iso(row.createdAt),
      evidence: evidenceJson(row.evidence),
    })),
    lifted_suppressions: suppression.lifted.map((row) => ({
      suppression_id: row.suppressionId,
      email: row.email,
      domain: row.domain,
      reason: row.reason,
      suppressed_at: iso(row.suppressedAt),
      lifted_at: iso(row.liftedAt),
      lifted_by: row.liftedByLabel,
      lift_reason: row.liftReason,
      evidence: evidenceJson(row.evidence),
    })),
    sends: sendRows.map(isoDates),
    events: eventRows.map(isoDates),
  };
}

export type ContactData = Awaited<ReturnType<typeof exportContactData>>;

import "server-only";

import { and, eq, sql } from "drizzle-orm";

import { systemActor } from "@/lib/actor";
import { billingAllowsSending } from "@/lib/billing/billing-allows-sending";
import { refundSends, reserveOneSendCtes } from "@/lib/billing/send-allowance";
import { renderMergeTags } from "@/lib/campaigns/merge-tags";
import { mergeValuesFor } from "@/lib/campaigns/render-campaign-mail";
import { NOT_VERIFIED } from "@/lib/campaigns/sending-rules";
import { consentFooter, withConsentFooter } from "@/lib/consent/consent-footer";
import { listHeaders } from "@/lib/consent/list-headers";
import { withTransaction, type Ctx } from "@/lib/context";
import {
  automationEntries,
  automations,
  automationSends,
  automationVersions,
  brands,
  contacts,
  sendingDomains,
  subscriptions,
  topics,
  workspaceBilling,
} from "@/lib/db/schema";
import { signingKeyOf } from "@/lib/domains/domain-signing-key";
import { recordEvent } from "@/lib/events/record-event";
import { escapeHtml } from "@/lib/mail/escape-html";
import { feedbackId } from "@/lib/mail/feedback-id";
import type { MailTransport } from "@/lib/mail/transports/mail-transport";
import { suppressedSql } from "@/lib/suppressions/suppressed";
import { addTracking } from "@/lib/tracking/tracking-links";
import { brandOpenSql } from "@/lib/workspaces/sending-clearance";

import { automationEmailEventBase, automationSendId } from "./automation-mail-events";
import type { ExitReason } from "./automation-schemas";
import {
  exitConditionHolds,
  exitEntry,
  moveEntry,
  nextStepAfter,
  positionFrom,
  type EntryPosition,
  type EntryState,
} from "./run-entry";
import { placeSteps } from "./step-tree";

export type SendOutcome =
  /** With where the entry is now, when the send's own statement could tell (else the run reads it). */
  | { outcome: "sent"; position: EntryPosition | null }
  | { outcome: "skipped"; reason: string }
  /** The step's row was there: a retried step, nothing mailed again. */
  | { outcome: "already" }
  /**
   * A retry found the step's `sending` mark (the run died after committing it, perhaps after the mail
   * left): recorded as sent without handing the mail over again, as the transport could not drop a repeat.
   */
  | { outcome: "sent_unconfirmed" }
  /** Nothing sent, the entry stays at this step: the automation is paused, billing pauses sending, or the period's send allowance is spent. */
  | { outcome: "paused"; automationId: string; why: "automation" | "billing" | "allowance" }
  | { outcome: "exited"; reason: ExitReason }
  /** The entry is not at this step (moved to another version): the run reads its place again. */
  | { outcome: "moved" }
  /** The entry is no longer active (ended by another run, or gone). */
  | { outcome: "ended" };

/**
 * System: one send step of an entry (docs/readings.md, "Automations"). Re-checked at send time: the
 * person still exists (else the entry exits `erased`), has not opted out of everything (`opted_out`),
 * is still subscribed to the topic (`unsubscribed`), not suppressed (`suppressed`), and the automation's
 * exit condition does not hold (`exit_condition`); a paused automation, a workspace whose billing stage
 * pauses sending, or one whose period's send allowance is spent sends nothing and holds the entry here.
 * In the sandbox, an address that is not verified skips this mail (`recipient_not_verified`), as a
 * campaign leaves it out. A used merge tag without a value skips this mail, recorded with the tag. The
 * mail carries the topic's consent footer and List-Unsubscribe headers, and its links and opens are
 * tracked as a campaign's. The mail is the step of the version the entry is on at send time.
 *
 * Sent once per entry and step number, a kill at any point included: the step's row is committed as
 * `sending` (with the send reserved from the allowance) before the mail is handed over, and becomes
 * `sent` or `skipped` after. A retry that finds a `sent` or `skipped` row mails nothing. One that finds
 * the `sending` mark cannot tell whether the mail left: a transport that drops a repeat of the same
 * idempotency key (the send id; local, Resend) is handed the mail again, and one that cannot (SMTP)
 * is not — the mark is recorded as sent, since a second hand-over there could mail the person twice.
 */
export async function sendAutomationStep(
  ctx: Ctx,
  transport: MailTransport,
  entryId: string,
  stepIndex: number,
): Promise<SendOutcome> {
  // Everything the checks and the mail need, in one statement: at campaign scale every sleeping person
  // wakes to this step together, and each round trip costs about as much CPU here as building the mail.
  const [row] = await ctx.db
    .select({
      entry: automationEntries,
      automation: automations,
      steps: automationVersions.steps,
      topic: topics,
      brand: brands,
      contact: contacts,
      subscriptionState: subscriptions.state,
      doneStatus: automationSends.status,
      suppressed: suppressedSql(automationEntries.workspaceId, contacts.email).mapWith(Boolean),
      billingStage: workspaceBilling.stage,
      trialEndsAt: workspaceBilling.trialEndsAt,
      cleared: brandOpenSql(brands.id).mapWith(Boolean),
      sandboxVerified: sql`exists (select 1 from sandbox_recipients s
        where s.workspace_id = ${automationEntries.workspaceId} and s.email = ${contacts.email})`.mapWith(Boolean),
      domain: sendingDomains,
    })
    .from(automationEntries)
    .innerJoin(automations, eq(automations.id, automationEntries.automationId))
    .innerJoin(automationVersions, eq(automationVersions.id, automationEntries.versionId))
    .innerJoin(topics, eq(topics.id, automations.topicId))
    .innerJoin(brands, eq(brands.id, topics.brandId))
    .leftJoin(contacts, eq(contacts.id, automationEntries.contactId))
    .leftJoin(
      subscriptions,
      and(eq(subscriptions.contactId, automationEntries.contactId), eq(subscriptions.topicId, automations.topicId)),
    )
    .leftJoin(
      automationSends,
      and(eq(automationSends.entryId, automationEntries.id), eq(automationSends.stepIndex, stepIndex)),
    )
    .leftJoin(workspaceBilling, eq(workspaceBilling.workspaceId, automationEntries.workspaceId))
    .leftJoin(sendingDomains, eq(sendingDomains.id, brands.domainId))
    .where(eq(automationEntries.id, entryId));
  if (!row || row.entry.status !== "active") return { outcome: "ended" };
  const done = row.doneStatus;
  const step = placeSteps(row.steps)[stepIndex]?.step;
  if (row.entry.stepIndex !== stepIndex || step?.type !== "send") {
    // A send that went before its record moved the entry on; anything else is a move to another version.
    return done ? { outcome: "already" } : { outcome: "moved" };
  }
  const { entry, automation, brand, topic, contact } = row;
  const sendId = automationSendId(entryId, stepIndex);
  const eventBase = {
    sendId,
    automationId: automation.id,
    stepIndex,
    contactId: contact?.id ?? null,
    email: contact?.email ?? "",
  };
  const marked = done === "sending";
  if (done && !marked) {
    await moveEntryPast(ctx, entryId, stepIndex);
    return { outcome: "already" };
  }
  if (marked && !transport.dropsRepeats) {
    // The checks passed and the send was reserved when the mark was committed; the mail may have left.
    await recordSend(ctx, entry, stepIndex, "sent", null, eventBase);
    return { outcome: "sent_unconfirmed" };
  }
  const exitReason: ExitReason | null = !contact
    ? "erased"
    : contact.optedOutAt
      ? "opted_out"
      : row.subscriptionState !== "subscribed"
        ? "unsubscribed"
        : row.suppressed
          ? "suppressed"
          : (await exitConditionHolds(ctx, entry, automation))
            ? "exit_condition"
            : null;
  if (exitReason) {
    await exitEntry(ctx, entryId, exitReason, stepIndex);
    return { outcome: "exited", reason: exitReason };
  }
  const billing = row.billingStage ? { stage: row.billingStage, trialEndsAt: row.trialEndsAt } : null;
  const why =
    automation.status !== "active"
      ? "automation"
      : billing && !billingAllowsSending(billing, ctx.clock.now())
        ? "billing"
        : null;
  if (why) return { outcome: "paused", automationId: automation.id, why };

  // The sandbox, as for a campaign: until the brand is cleared, only the workspace's verified addresses.
  if (!row.cleared && !row.sandboxVerified) {
    await recordSend(ctx, entry, stepIndex, "skipped", NOT_VERIFIED, eventBase);
    return { outcome: "skipped", reason: NOT_VERIFIED };
  }
  const values = mergeValuesFor(contact!, brand);
  const subject = renderMergeTags(step.subject, values, "header");
  const html = renderMergeTags(step.html ?? "", values, "html");
  const text = renderMergeTags(step.text ?? "", values, "text");
  const missing = [subject, html, text].find((r): r is { missing: string } => "missing" in r);
  if (missing) {
    const reason = `missing_merge_tag:${missing.missing}`;
    await recordSend(ctx, entry, stepIndex, "skipped", reason, eventBase);
    return { outcome: "skipped", reason };
  }
  // The allowance, as a campaign's recipients take it: one send reserved, given back if nothing leaves;
  // a mark found by a retry was reserved by the attempt that committed it.
  if (!marked && !(await reserveAndMark(ctx, entry, stepIndex, sendId)))
    return { outcome: "paused", automationId: automation.id, why: "allowance" };
  const rendered = { subject: (subject as { text: string }).text, html: (html as { text: string }).text };
  const body = { text: (text as { text: string }).text };
  const target = { contactId: contact!.id, topicId: topic.id };
  const footer = consentFooter(target, brand);
  const htmlBody = rendered.html.trim()
    ? rendered.html
    : `<!doctype html><html><body><div style="white-space:pre-wrap;font-family:system-ui,sans-serif">${escapeHtml(body.text)}</div></body></html>`;
  const dkim = signingKeyOf(row.domain, brand);
  let sent;
  try {
    sent = await transport.send(ctx, {
      workspaceId: entry.workspaceId,
      // The send id: it becomes the signed Message-ID and return path, so bounces and complaints find the row.
      idempotencyKey: sendId,
      from: { name: brand.name, address: brand.senderEmail },
      replyTo: brand.replyTo ?? undefined,
      to: contact!.email,
      subject: rendered.subject,
      html: withConsentFooter(addTracking(htmlBody, sendId), footer, { blocks: false }),
      text: `${body.text}${footer.text}`,
      headers: {
        ...listHeaders(target, brand),
        "Feedback-ID": feedbackId({ stream: automation.id, brandId: brand.id, workspaceId: entry.workspaceId }),
      },
      ...(dkim ? { dkim } : {}),
    });
  } catch (error) {
    // A hand-over that failed with an error (a refusal, no connection) is taken as not made: the mark
    // goes and the send is given back, so the retry sends it afresh. Only a kill leaves the mark behind.
    await withTransaction(ctx, async (tx) => {
      await tx.db
        .delete(automationSends)
        .where(and(eq(automationSends.id, sendId), eq(automationSends.status, "sending")));
      await refundSends(tx, entry.workspaceId, 1);
    });
    throw error;
  }
  const position = await recordSent(ctx, row, stepIndex, sendId, sent.providerMessageId);
  return { outcome: "sent", position };
}

/**
 * One send reserved from the period's allowance and the step's `sending` mark, in one statement, so
 * that a kill leaves both or neither. False, with nothing kept, when the allowance is spent.
 */
async function reserveAndMark(
  ctx: Ctx,
  entry: typeof automationEntries.$inferSelect,
  stepIndex: number,
  sendId: string,
): Promise<boolean> {
  const marked = await ctx.db.execute<{ id: string }>(sql`
    with ${reserveOneSendCtes(entry.workspaceId)}
    insert into automation_sends (id, workspace_id, automation_id, entry_id, step_index, status, sent_at)
    select ${sendId}, ${entry.workspaceId}, ${entry.automationId}, ${entry.id}, ${stepIndex}, 'sending',
      ${ctx.clock.now().toISOString()}::timestamptz
    from covered_send where covered
    returning id`);
  return marked.length > 0;
}

/**
 * A mail handed over: its `sending` mark made `sent` and the entry moved past the step, in one statement,
 * and where that leaves the entry (null when the entry was not where the send found it, moved to another
 * version meanwhile: the run reads its place again, and a send step there with this number finds the row).
 */
async function recordSent(
  ctx: Ctx,
  row: {
    entry: typeof automationEntries.$inferSelect;
    steps: EntryState["steps"];
    automation: typeof automations.$inferSelect;
    brand: typeof brands.$inferSelect;
  },
  stepIndex: number,
  sendId: string,
  providerMessageId: string | null,
): Promise<EntryPosition | null> {
  const { entry } = row;
  const next = nextStepAfter(row.steps, stepIndex, "send")!;
  const moved = await ctx.db.execute<{ id: string }>(sql`
    with saved as (
      update automation_sends set status = 'sent', reason = null,
        sent_at = ${ctx.clock.now().toISOString()}::timestamptz, provider_message_id = ${providerMessageId}
      where id = ${sendId} and status = 'sending'
    )
    update automation_entries set step_index = ${next}
    where id = ${entry.id} and status = 'active' and step_index = ${stepIndex} and version_id = ${entry.versionId}
    returning id`);
  if (moved.length === 0) return null;
  return positionFrom(ctx, {
    entry: { ...entry, stepIndex: next },
    steps: row.steps,
    topicId: row.automation.topicId,
    brandId: row.brand.id,
    exitCondition: row.automation.exitCondition,
  });
}

/** The entry moves past its send step, if it is still there (a move may have put it elsewhere). */
async function moveEntryPast(ctx: Ctx, entryId: string, stepIndex: number): Promise<void> {
  const [row] = await ctx.db
    .select({ versionId: automationEntries.versionId, steps: automationVersions.steps })
    .from(automationEntries)
    .innerJoin(automationVersions, eq(automationVersions.id, automationEntries.versionId))
    .where(eq(automationEntries.id, entryId));
  const next = row && nextStepAfter(row.steps, stepIndex, "send");
  if (next != null) await moveEntry(ctx, { id: entryId, versionId: row!.versionId }, stepIndex, next);
}

/**
 * The step's row (new, or the `sending` mark made final) and the entry moved past it, together; a
 * skipped mail is an `email.failed` event, as a campaign recipient's is, carrying the automation and step.
 */
async function recordSend(
  ctx: Ctx,
  entry: typeof automationEntries.$inferSelect,
  stepIndex: number,
  status: "sent" | "skipped",
  reason: string | null,
  event: Parameters<typeof automationEmailEventBase>[0],
  providerMessageId: string | null = null,
): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    const [inserted] = await tx.db
      .insert(automationSends)
      .values({
        id: event.sendId,
        workspaceId: entry.workspaceId,
        automationId: entry.automationId,
        entryId: entry.id,
        stepIndex,
        status,
        reason,
        sentAt: tx.clock.now(),
        providerMessageId,
      })
      .onConflictDoUpdate({
        target: automationSends.id,
        set: { status, reason, sentAt: tx.clock.now(), providerMessageId },
        setWhere: eq(automationSends.status, "sending"),
      })
      .returning({ id: automationSends.id });
    await moveEntryPast(tx, entry.id, stepIndex);
    if (inserted && status === "skipped")
      await recordEvent(
        tx,
        systemActor(`automation:${entry.automationId}`, entry.workspaceId),
        "email.failed",
        { ...automationEmailEventBase(event, tx.clock.now()), reason: reason! },
        tx.clock.now(),
      );
  });
}

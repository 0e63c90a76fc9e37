import "server-only";

import { and, eq, sql } from "drizzle-orm";

import { billingAllowsSending } from "@/lib/billing/billing-allows-sending";
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
  subscriptions,
  topics,
  workspaceBilling,
} from "@/lib/db/schema";
import { domainSigningKey } from "@/lib/domains/domain-signing-key";
import { newId } from "@/lib/ids";
import { escapeHtml } from "@/lib/mail/escape-html";
import { feedbackId } from "@/lib/mail/feedback-id";
import type { MailTransport } from "@/lib/mail/transports/mail-transport";
import { suppressedAmong } from "@/lib/suppressions/suppressed";
import { brandClearance } from "@/lib/workspaces/sending-clearance";

import type { ExitReason } from "./automation-schemas";

// The steps of an entry's run (inngest/functions/automation-entry.ts), each a verb the run calls in a
// step: System: called by the workflow with the entry id its event carries, never on a person's request.

/** A step as the run walks it: its kind and a wait's length (the mail itself is read at send time). */
export type RunStep = { type: "send" } | { type: "wait"; minutes: number };

/**
 * System: the steps of the version the entry entered, or null when the entry is no longer active. Only
 * their kinds and waits: the run keeps this in its log, and a mail's body has no place there.
 */
export async function entrySteps(ctx: Ctx, entryId: string): Promise<RunStep[] | null> {
  const [row] = await ctx.db
    .select({ status: automationEntries.status, steps: automationVersions.steps })
    .from(automationEntries)
    .innerJoin(automationVersions, eq(automationVersions.id, automationEntries.versionId))
    .where(eq(automationEntries.id, entryId));
  if (!row || row.status !== "active") return null;
  return row.steps.map((step) => (step.type === "wait" ? { type: "wait", minutes: step.minutes } : { type: "send" }));
}

/** System: the entry is now at this step (a wait it sleeps through), for the figures. */
export async function markEntryAt(ctx: Ctx, entryId: string, stepIndex: number): Promise<void> {
  await ctx.db
    .update(automationEntries)
    .set({ stepIndex })
    .where(and(eq(automationEntries.id, entryId), eq(automationEntries.status, "active")));
}

/** System: the entry walked every step. */
export async function completeEntry(ctx: Ctx, entryId: string, stepCount: number): Promise<void> {
  await ctx.db
    .update(automationEntries)
    .set({ status: "completed", stepIndex: stepCount, endedAt: ctx.clock.now() })
    .where(and(eq(automationEntries.id, entryId), eq(automationEntries.status, "active")));
}

export type SendOutcome =
  | { outcome: "sent" }
  | { outcome: "skipped"; reason: string }
  /** The step's row was there: a retried step, nothing mailed again. */
  | { outcome: "already" }
  /** The automation is paused: nothing sent, the entry stays at this step. */
  | { outcome: "paused"; automationId: string; why: "automation" | "billing" }
  | { outcome: "exited"; reason: ExitReason }
  /** The entry is no longer active (ended by another run, or gone). */
  | { outcome: "ended" };

/**
 * System: one send step of an entry (docs/readings.md, "Automations"). Re-checked at send time: the
 * person still exists (else the entry exits `erased`), has not opted out of everything (`opted_out`),
 * is still subscribed to the topic (`unsubscribed`) and not suppressed (`suppressed`); a paused
 * automation, or a workspace whose billing stage pauses sending, sends nothing and holds the entry here. In the sandbox, an address that is not verified skips this mail
 * (`recipient_not_verified`), as a campaign leaves it out. A used merge tag without a value skips this mail, recorded with the tag.
 * The mail carries the topic's consent footer and List-Unsubscribe headers. Sent once per entry and
 * step: the row of the step is looked for first, and the transport's idempotency key (entry and step)
 * drops a repeat of a hand-over whose record was lost.
 */
export async function sendAutomationStep(
  ctx: Ctx,
  transport: MailTransport,
  entryId: string,
  stepIndex: number,
): Promise<SendOutcome> {
  const [row] = await ctx.db
    .select({
      entry: automationEntries,
      automation: automations,
      steps: automationVersions.steps,
      topic: topics,
      brand: brands,
      contact: contacts,
      subscriptionState: subscriptions.state,
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
    .where(eq(automationEntries.id, entryId));
  if (!row || row.entry.status !== "active") return { outcome: "ended" };
  const step = row.steps[stepIndex];
  if (!step || step.type !== "send") throw new Error(`Step ${stepIndex} of entry ${entryId} is not a send step.`);
  const [done] = await ctx.db
    .select({ id: automationSends.id })
    .from(automationSends)
    .where(and(eq(automationSends.entryId, entryId), eq(automationSends.stepIndex, stepIndex)));
  if (done) {
    await markEntryAt(ctx, entryId, stepIndex + 1);
    return { outcome: "already" };
  }
  const { entry, automation, brand, topic, contact } = row;
  const exitReason: ExitReason | null = !contact
    ? "erased"
    : contact.optedOutAt
      ? "opted_out"
      : row.subscriptionState !== "subscribed"
        ? "unsubscribed"
        : (await suppressedAmong(ctx, entry.workspaceId, [contact.email])).size > 0
          ? "suppressed"
          : null;
  if (exitReason) {
    await ctx.db
      .update(automationEntries)
      .set({ status: "exited", exitReason, stepIndex, endedAt: ctx.clock.now() })
      .where(and(eq(automationEntries.id, entryId), eq(automationEntries.status, "active")));
    return { outcome: "exited", reason: exitReason };
  }
  const [billing] = await ctx.db
    .select({ stage: workspaceBilling.stage, trialEndsAt: workspaceBilling.trialEndsAt })
    .from(workspaceBilling)
    .where(eq(workspaceBilling.workspaceId, entry.workspaceId));
  const why =
    automation.status !== "active"
      ? "automation"
      : billing && !billingAllowsSending(billing, ctx.clock.now())
        ? "billing"
        : null;
  if (why) {
    await markEntryAt(ctx, entryId, stepIndex);
    return { outcome: "paused", automationId: automation.id, why };
  }

  // The sandbox, as for a campaign: until the brand is cleared, only the workspace's verified addresses.
  if (!(await brandClearance(ctx, brand.id)).open) {
    const verified = await ctx.db.execute(
      sql`select 1 from sandbox_recipients where workspace_id = ${entry.workspaceId} and email = ${contact!.email} limit 1`,
    );
    if (verified.length === 0) {
      await recordSend(ctx, entry, stepIndex, "skipped", NOT_VERIFIED);
      return { outcome: "skipped", reason: NOT_VERIFIED };
    }
  }
  const values = mergeValuesFor(contact!, brand);
  const subject = renderMergeTags(step.subject, values, "header");
  const html = renderMergeTags(step.html ?? "", values, "html");
  const text = renderMergeTags(step.text ?? "", values, "text");
  const missing = [subject, html, text].find((r): r is { missing: string } => "missing" in r);
  if (missing) {
    const reason = `missing_merge_tag:${missing.missing}`;
    await recordSend(ctx, row.entry, stepIndex, "skipped", reason);
    return { outcome: "skipped", reason };
  }
  const rendered = { subject: (subject as { text: string }).text, html: (html as { text: string }).text };
  const body = { text: (text as { text: string }).text };
  const target = { contactId: contact!.id, topicId: topic.id };
  const footer = consentFooter(target, brand);
  const htmlBody = rendered.html.trim()
    ? rendered.html
    : `<!doctype html><html><body><div style="white-space:pre-wrap;font-family:system-ui,sans-serif">${escapeHtml(body.text)}</div></body></html>`;
  const dkim = await domainSigningKey(ctx, brand);
  await transport.send(ctx, {
    workspaceId: entry.workspaceId,
    idempotencyKey: `automation-${entryId}-${stepIndex}`,
    from: { name: brand.name, address: brand.senderEmail },
    replyTo: brand.replyTo ?? undefined,
    to: contact!.email,
    subject: rendered.subject,
    html: withConsentFooter(htmlBody, footer, { blocks: false }),
    text: `${body.text}${footer.text}`,
    headers: {
      ...listHeaders(target, brand),
      "Feedback-ID": feedbackId({ stream: automation.id, brandId: brand.id, workspaceId: entry.workspaceId }),
    },
    ...(dkim ? { dkim } : {}),
  });
  await recordSend(ctx, entry, stepIndex, "sent", null);
  return { outcome: "sent" };
}

/** The step's row and the entry moved past it, together. */
async function recordSend(
  ctx: Ctx,
  entry: typeof automationEntries.$inferSelect,
  stepIndex: number,
  status: "sent" | "skipped",
  reason: string | null,
): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    await tx.db
      .insert(automationSends)
      .values({
        id: newId("asn"),
        workspaceId: entry.workspaceId,
        automationId: entry.automationId,
        entryId: entry.id,
        stepIndex,
        status,
        reason,
        sentAt: tx.clock.now(),
      })
      .onConflictDoNothing();
    await markEntryAt(tx, entry.id, stepIndex + 1);
  });
}

import "server-only";

import { sql, type SQL } from "drizzle-orm";

import { DAY_MS } from "@/lib/billing/plan-defaults";
import type { Ctx } from "@/lib/context";
import { env, type Env } from "@/lib/env";

/** Rows per statement: each delete is a short transaction, however much has piled up. */
const CHUNK = 10_000;
/** Rate-limit windows are one or fifteen minutes long; a day-old one weighs nothing in any window. */
const RATE_LIMIT_WINDOW_KEEP_MS = DAY_MS;

export type Pruned = Record<
  "workflowRuns" | "webhookDeliveries" | "rateLimitWindows" | "mailboxMessages" | "providerEvents" | "exactRollups",
  number
>;

/**
 * Deletes what has served its purpose, each kind past its age (configuration, in days): finished
 * workflow runs (a failed one three times as long, so it can still be retried), webhook deliveries
 * that succeeded or gave up (their attempts go with them), rate-limit windows, messages of the local
 * mailbox, provider reports already applied or ignored, and the activity series' exact-instant rollups. Kept whatever their age: pending runs and
 * deliveries (a retry still needs them) and the provider reports a suppression cites as evidence.
 */
export async function pruneExpired(ctx: Ctx, config: Env = env()): Promise<Pruned> {
  const now = ctx.clock.now().getTime();
  const before = (days: number) => new Date(now - days * DAY_MS).toISOString();
  return {
    workflowRuns:
      (await inChunks(
        ctx,
        "workflow_runs",
        sql`status in ('completed', 'cancelled') and updated_at < ${before(config.RETENTION_WORKFLOW_RUNS_DAYS)}`,
      )) +
      (await inChunks(
        ctx,
        "workflow_runs",
        sql`status = 'failed' and updated_at < ${before(config.RETENTION_WORKFLOW_RUNS_DAYS * 3)}`,
      )),
    webhookDeliveries: await inChunks(
      ctx,
      "webhook_deliveries",
      sql`status in ('succeeded', 'failed') and created_at < ${before(config.RETENTION_WEBHOOK_DELIVERIES_DAYS)}`,
    ),
    rateLimitWindows: await inChunks(
      ctx,
      "rate_limit_windows",
      sql`window_start < ${new Date(now - RATE_LIMIT_WINDOW_KEEP_MS).toISOString()}`,
    ),
    mailboxMessages: await inChunks(ctx, "mail_messages", sql`created_at < ${before(config.RETENTION_MAILBOX_DAYS)}`),
    providerEvents: await inChunks(
      ctx,
      "provider_events",
      sql`state in ('applied', 'ignored', 'unrecognized') and received_at < ${before(config.RETENTION_PROVIDER_EVENTS_DAYS)}
          and not exists (select 1 from suppressions s where s.evidence_event_id = provider_events.id)
          and not exists (select 1 from suppression_lifts l where l.evidence_event_id = provider_events.id)`,
    ),
    // Their counts are in the minute and day rollups too; a report window ending this far back is
    // counted to the whole minute (countableWindow), so no report reads them any more. A day later
    // than that: a window end just inside the age still reads the start of its minute, and the
    // instances' clocks may differ.
    exactRollups: await inChunks(
      ctx,
      "report_activity",
      sql`grain = 'x' and bucket_at < ${before(config.RETENTION_EXACT_ROLLUPS_DAYS + 1)}`,
    ),
  };
}

async function inChunks(ctx: Ctx, table: string, where: SQL): Promise<number> {
  let total = 0;
  for (;;) {
    const result = await ctx.db.execute(
      sql`delete from ${sql.identifier(table)} where ctid in (select ctid from ${sql.identifier(table)} where ${where} limit ${CHUNK})`,
    );
    total += result.count;
    if (result.count < CHUNK) return total;
  }
}

import "server-only";

import { CronExpressionParser } from "cron-parser";
import { and, eq, lte } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { workflowCrons } from "@/lib/db/schema";

import { enqueueEvents } from "./enqueue";
import type { RegisteredFunction } from "./registry";

function nextAfter(cron: string, after: Date): Date {
  return CronExpressionParser.parse(cron, { currentDate: after, tz: "UTC" }).next().toDate();
}

/** Records each cron function's next firing; an unchanged schedule keeps its next time across restarts. */
export async function scheduleCrons(ctx: Ctx, registry: RegisteredFunction[]): Promise<void> {
  const now = ctx.clock.now();
  for (const registered of registry) {
    for (const cron of registered.crons) {
      const functionId = `${registered.slug}#${cron}`;
      const [existing] = await ctx.db.select().from(workflowCrons).where(eq(workflowCrons.functionId, functionId));
      if (existing?.cron === cron) continue;
      await ctx.db
        .insert(workflowCrons)
        .values({ functionId, cron, nextAt: nextAfter(cron, now) })
        .onConflictDoUpdate({ target: workflowCrons.functionId, set: { cron, nextAt: nextAfter(cron, now) } });
    }
  }
}

/**
 * Starts a run for every cron that is due. Advancing `next_at` only from the
 * value read makes one instance win each firing; the event id (cron + time)
 * makes a repeated firing start nothing.
 */
export async function fireDueCrons(ctx: Ctx, registry: RegisteredFunction[]): Promise<void> {
  const now = ctx.clock.now();
  const due = await ctx.db.select().from(workflowCrons).where(lte(workflowCrons.nextAt, now));
  for (const row of due) {
    const [slug] = row.functionId.split("#");
    const registered = registry.find((r) => r.slug === slug);
    if (!registered) continue;
    const advanced = await ctx.db
      .update(workflowCrons)
      .set({ nextAt: nextAfter(row.cron, now) })
      .where(and(eq(workflowCrons.functionId, row.functionId), eq(workflowCrons.nextAt, row.nextAt)))
      .returning();
    if (advanced.length === 0) continue;
    await enqueueEvents(
      ctx,
      [{ ...registered, events: ["inngest/scheduled.timer"], cancelOn: [] }],
      [
        {
          name: "inngest/scheduled.timer",
          id: `cron:${row.functionId}:${row.nextAt.toISOString()}`,
          data: { cron: row.cron },
        },
      ],
    );
  }
}

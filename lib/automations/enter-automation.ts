import "server-only";

import { and, eq } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { automationEntries, automations } from "@/lib/db/schema";
import { emitEvents } from "@/lib/events/emit-events";
import { automationEntryStarted } from "@/lib/events/workflow-events";
import { newId } from "@/lib/ids";

import type { AutomationTrigger } from "./automation-schemas";
import { latestVersion } from "./automations";
import { mayEnterAgain } from "./reentry";

/**
 * Internal: a person's trigger happened on a topic (confirmSubscription calls it with the
 * subscription's workspace, in its transaction). Each active automation of the topic with that
 * trigger gets an entry, once per person (docs/readings.md, "Automations"), on its newest version,
 * and the entry's run is emitted in the same transaction.
 */
export async function enterAutomations(
  ctx: Ctx,
  workspaceId: string,
  on: { topicId: string; contactId: string; trigger: AutomationTrigger },
): Promise<{ entryIds: string[] }> {
  const active = await ctx.db
    .select({ id: automations.id, reentryAfterMinutes: automations.reentryAfterMinutes })
    .from(automations)
    .where(
      and(
        eq(automations.workspaceId, workspaceId),
        eq(automations.topicId, on.topicId),
        eq(automations.trigger, on.trigger),
        eq(automations.status, "active"),
      ),
    );
  const entryIds: string[] = [];
  for (const automation of active) {
    const version = await latestVersion(ctx, automation.id);
    if (!version) continue;
    if (!(await mayEnterAgain(ctx, automation, on.contactId))) continue;
    const [entry] = await ctx.db
      .insert(automationEntries)
      .values({
        id: newId("aen"),
        workspaceId,
        automationId: automation.id,
        versionId: version.id,
        contactId: on.contactId,
        enteredAt: ctx.clock.now(),
      })
      .onConflictDoNothing()
      .returning({ id: automationEntries.id });
    if (entry) entryIds.push(entry.id);
  }
  if (entryIds.length > 0)
    await emitEvents(
      ctx,
      entryIds.map((entryId) => ({ name: automationEntryStarted.name, id: `entry-${entryId}`, data: { entryId } })),
    );
  return { entryIds };
}

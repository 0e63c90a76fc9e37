import { eq } from "drizzle-orm";

import { systemActor } from "@/lib/actor";
import type { AutomationTrigger } from "@/lib/automations/automation-schemas";
import { activateAutomation, createAutomation, setAutomationSteps } from "@/lib/automations/automations";
import type { Ctx } from "@/lib/context";
import { automationEntries } from "@/lib/db/schema";

/** An active automation of `topicId` with this trigger, one mail long. */
export async function activeAutomation(
  ctx: Ctx,
  workspaceId: string,
  topicId: string,
  trigger: AutomationTrigger,
  settings: Record<string, unknown> = {},
): Promise<string> {
  const actor = systemActor("test", workspaceId);
  const { automationId } = await createAutomation(ctx, actor, {
    name: `On ${trigger}`,
    topic_id: topicId,
    trigger,
    trigger_settings: settings,
  });
  await setAutomationSteps(ctx, actor, automationId, { steps: [{ type: "send", subject: "Hi", text: "Hello." }] });
  await activateAutomation(ctx, actor, automationId);
  return automationId;
}

/** The contacts that entered the automation, sorted. */
export async function enteredContacts(ctx: Ctx, automationId: string): Promise<string[]> {
  const rows = await ctx.db
    .select({ contactId: automationEntries.contactId })
    .from(automationEntries)
    .where(eq(automationEntries.automationId, automationId));
  return rows.map((r) => r.contactId!).sort();
}

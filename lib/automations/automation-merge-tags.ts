import "server-only";

import { eq } from "drizzle-orm";

import { assertKnownMergeTags } from "@/lib/campaigns/merge-tags";
import type { Ctx } from "@/lib/context";
import { attributeDefinitions } from "@/lib/db/schema";

import { numberSteps, type AutomationStep } from "./automation-schemas";

/**
 * Internal: the campaign rule for merge tags, per send step: only `contact.` and `brand.` tags the
 * workspace knows, refused naming the step's field by its number (`steps.2.subject`, numberSteps).
 */
export async function assertKnownMergeTagsOfSteps(
  ctx: Ctx,
  workspaceId: string,
  steps: AutomationStep[],
): Promise<void> {
  const definitions = await ctx.db
    .select({ key: attributeDefinitions.key })
    .from(attributeDefinitions)
    .where(eq(attributeDefinitions.workspaceId, workspaceId));
  const keys = new Set(definitions.map((d) => d.key));
  numberSteps(steps).forEach(({ step, index }) => {
    if (step.type !== "send") return;
    assertKnownMergeTags(
      {
        [`steps.${index}.subject`]: step.subject,
        [`steps.${index}.html`]: step.html,
        [`steps.${index}.text`]: step.text,
      },
      keys,
    );
  });
}

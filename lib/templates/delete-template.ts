import "server-only";

import { and, eq } from "drizzle-orm";

import type { WorkspaceActor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { templates } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";

/** Deletes a template. Campaigns started from it keep their body: they hold a copy, not a link. */
export async function deleteTemplate(
  ctx: Ctx,
  actor: WorkspaceActor,
  templateId: string,
): Promise<{ templateId: string }> {
  const [deleted] = await ctx.db
    .delete(templates)
    .where(and(eq(templates.id, templateId), eq(templates.workspaceId, actor.workspaceId)))
    .returning({ id: templates.id });
  if (!deleted) throw notFound("template_not_found", `No template ${templateId}.`);
  return { templateId };
}

import "server-only";

import { and, eq } from "drizzle-orm";

import type { WorkspaceActor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { templates } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";
import { parseInput } from "@/lib/validation/parse-input";

import { renameTemplateSchema, type RenameTemplateInput } from "./template-schemas";

/** A new name for a template of the actor's workspace; its body stays. */
export async function renameTemplate(
  ctx: Ctx,
  actor: WorkspaceActor,
  input: RenameTemplateInput,
): Promise<{ templateId: string }> {
  const { templateId, name } = parseInput(renameTemplateSchema, input);
  const [renamed] = await ctx.db
    .update(templates)
    .set({ name })
    .where(and(eq(templates.id, templateId), eq(templates.workspaceId, actor.workspaceId)))
    .returning({ id: templates.id });
  if (!renamed) throw notFound("template_not_found", `No template ${templateId}.`);
  return { templateId };
}

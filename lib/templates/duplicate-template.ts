import "server-only";

import type { WorkspaceActor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { templates } from "@/lib/db/schema";
import { newId } from "@/lib/ids";

import { getTemplateBodyOrThrow } from "./templates";

/** A new template with another one's body, named "Copy of …", to change without touching the original. */
export async function duplicateTemplate(
  ctx: Ctx,
  actor: WorkspaceActor,
  templateId: string,
): Promise<{ templateId: string }> {
  const source = await getTemplateBodyOrThrow(ctx, actor, templateId);
  const copyId = newId("tpl");
  await ctx.db.insert(templates).values({
    id: copyId,
    workspaceId: actor.workspaceId,
    name: `Copy of ${source.name}`.slice(0, 200),
    document: source.document,
    html: source.html,
    text: source.text,
    createdAt: ctx.clock.now(),
  });
  return { templateId: copyId };
}

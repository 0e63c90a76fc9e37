import "server-only";

import { asc, eq } from "drizzle-orm";

import { requireActorWorkspace, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { attributeDefinitions, type AttributeType } from "@/lib/db/schema";

export interface ImportField {
  /** What a mapping names: `email`, `first_name`, `last_name`, `time_zone` or `attributes.<key>`. */
  key: string;
  label: string;
  /** For attributes: the type a cell must have. */
  type: AttributeType | null;
}

/** The fields a column can fill in this workspace: the address, the names, the time zone and each defined attribute. */
export async function importFields(ctx: Ctx, actor: Actor): Promise<ImportField[]> {
  const workspaceId = requireActorWorkspace(actor);
  const attributes = await ctx.db
    .select({ key: attributeDefinitions.key, type: attributeDefinitions.type })
    .from(attributeDefinitions)
    .where(eq(attributeDefinitions.workspaceId, workspaceId))
    .orderBy(asc(attributeDefinitions.key));
  return [
    { key: "email", label: "Email address", type: null },
    { key: "first_name", label: "First name", type: null },
    { key: "last_name", label: "Last name", type: null },
    { key: "time_zone", label: "Time zone", type: null },
    ...attributes.map((a) => ({ key: `attributes.${a.key}`, label: a.key, type: a.type })),
  ];
}

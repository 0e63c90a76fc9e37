import "server-only";

import type { Ctx } from "@/lib/context";
import { workspaces } from "@/lib/db/schema";

import { hasAnyUser } from "./has-any-user";

/**
 * Whether the unauthenticated first-run page may create an owner: only on an
 * empty service. Any user row (even one without a password, named owner by
 * the admin CLI) or any workspace closes it for good, so nobody can claim an
 * account or a workspace someone else set up.
 */
export async function isSetupOpen(ctx: Ctx): Promise<boolean> {
  if (await hasAnyUser(ctx)) return false;
  const rows = await ctx.db.select({ id: workspaces.id }).from(workspaces).limit(1);
  return rows.length === 0;
}

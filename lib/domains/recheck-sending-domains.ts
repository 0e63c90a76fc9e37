import "server-only";

import { systemActor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { sendingDomains } from "@/lib/db/schema";

import { checkSendingDomain, type DomainDeps } from "./sending-domains";

/**
 * Every domain checked again, each in its own workspace. A domain whose
 * check fails (its DNS host unreachable) keeps its state and is counted;
 * the others go on.
 */
export async function recheckSendingDomains(
  ctx: Ctx,
  deps: DomainDeps = {},
): Promise<{ checked: number; recordsMissing: number; unreachable: number }> {
  const domains = await ctx.db
    .select({ id: sendingDomains.id, workspaceId: sendingDomains.workspaceId })
    .from(sendingDomains);
  let recordsMissing = 0;
  let unreachable = 0;
  for (const domain of domains) {
    try {
      const checked = await checkSendingDomain(
        ctx,
        systemActor("recheck-domains", domain.workspaceId),
        domain.id,
        deps,
      );
      if (checked.state === "records_missing") recordsMissing++;
    } catch {
      unreachable++;
    }
  }
  return { checked: domains.length, recordsMissing, unreachable };
}

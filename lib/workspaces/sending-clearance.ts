import "server-only";

import { sql, type SQL, type SQLWrapper } from "drizzle-orm";

import { requireActorWorkspace, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { rawClient } from "@/lib/db/client";

export type ClearanceStep = "domain" | "brand" | "review";

export interface Clearance {
  /** All three hold: the brand's campaigns may go to anyone, not only the sandbox's verified addresses. */
  open: boolean;
  missing: ClearanceStep[];
}

/**
 * The sandbox rule (spec, point 10), per brand: its mail reaches anyone
 * once its sending domain is ready with the sender address at it, the brand
 * is approved, and the service has reviewed the workspace. Until then only
 * the sandbox's recipients (the sandbox_recipients view). Read at each batch,
 * so leaving the sandbox needs no restart.
 */
export async function brandClearance(ctx: Ctx, brandId: string): Promise<Clearance> {
  // Through ctx.db, not the raw client: the audience snapshot and the send verbs ask inside their transaction.
  const [row] = await ctx.db.execute<{ reviewed: boolean; approved: boolean; domainReady: boolean }>(
    clearanceOf(brandId),
  );
  const missing: ClearanceStep[] = [];
  if (!row?.domainReady) missing.push("domain");
  if (!row?.approved) missing.push("brand");
  if (!row?.reviewed) missing.push("review");
  return { open: missing.length === 0, missing };
}

/**
 * The same rule inside a query: whether the brand (a value or a column of the query) is out of the
 * sandbox, for a sender that reads everything a mail needs in one statement.
 */
export function brandOpenSql(brandId: string | SQLWrapper): SQL<boolean> {
  return sql<boolean>`coalesce((select c.reviewed and c.approved and c."domainReady" from (${clearanceOf(brandId)}) c), false)`;
}

function clearanceOf(brandId: string | SQLWrapper): SQL {
  return sql`
    select w.approved_at is not null as reviewed,
           b.review_status = 'approved' as approved,
           coalesce(d.state = 'ready' and lower(split_part(b.sender_email, '@', 2)) = d.hostname, false) as "domainReady"
    from brands b
    join workspaces w on w.id = b.workspace_id
    left join sending_domains d on d.id = b.domain_id
    where b.id = ${brandId}`;
}

/** Each brand of the workspace with its clearance, for the overview and the verified addresses screen. */
export async function workspaceClearance(
  ctx: Ctx,
  actor: Actor,
): Promise<(Clearance & { brandId: string; name: string })[]> {
  const workspaceId = requireActorWorkspace(actor);
  const brands = await rawClient(ctx.db)<
    { id: string; name: string }[]
  >`select id, name from brands where workspace_id = ${workspaceId} order by name`;
  return Promise.all(
    brands.map(async (brand) => ({ brandId: brand.id, name: brand.name, ...(await brandClearance(ctx, brand.id)) })),
  );
}

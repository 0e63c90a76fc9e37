import "server-only";

import type { Ctx } from "@/lib/context";
import { rawClient } from "@/lib/db/client";

export interface WorkspaceAwaitingReview {
  id: string;
  name: string;
  createdAt: Date;
  owners: string[];
  rejectedAt: Date | null;
  reviewNote: string | null;
  /** The last decision (a rejection, for a workspace still here) was a self-review. */
  selfReviewed: boolean;
  brands: { name: string; reviewStatus: string }[];
  domains: { hostname: string; state: string }[];
}

export interface BrandAwaitingReview {
  id: string;
  workspaceId: string;
  workspaceName: string;
  name: string;
  legalName: string;
  postalAddress: string;
  websiteUrl: string;
  senderEmail: string;
  domainState: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The operators' queue: workspaces not yet reviewed (rejected ones stay, with their note) and brands awaiting review, oldest first. */
export async function listReviewQueue(
  ctx: Ctx,
): Promise<{ workspaces: WorkspaceAwaitingReview[]; brands: BrandAwaitingReview[] }> {
  const sql = rawClient(ctx.db);
  const [workspaces, brands] = await Promise.all([
    sql<WorkspaceAwaitingReview[]>`
      select w.id, w.name, w.created_at as "createdAt", w.review_rejected_at as "rejectedAt", w.review_note as "reviewNote",
             w.self_reviewed as "selfReviewed",
             coalesce((select json_agg(u.email order by u.email) from memberships m join users u on u.id = m.user_id where m.workspace_id = w.id and m.role = 'owner'), '[]') as owners,
             coalesce((select json_agg(json_build_object('name', b.name, 'reviewStatus', b.review_status) order by b.name) from brands b where b.workspace_id = w.id), '[]') as brands,
             coalesce((select json_agg(json_build_object('hostname', d.hostname, 'state', d.state) order by d.hostname) from sending_domains d where d.workspace_id = w.id), '[]') as domains
      from workspaces w
      where w.approved_at is null
      order by w.created_at`,
    sql<BrandAwaitingReview[]>`
      select b.id, b.workspace_id as "workspaceId", w.name as "workspaceName", b.name, b.legal_name as "legalName", b.postal_address as "postalAddress",
             b.website_url as "websiteUrl", b.sender_email as "senderEmail", d.state as "domainState", b.created_at as "createdAt", b.updated_at as "updatedAt"
      from brands b
      join workspaces w on w.id = b.workspace_id
      left join sending_domains d on d.id = b.domain_id
      where b.review_status = 'pending'
      order by b.created_at`,
  ]);
  // The raw client hands timestamps over as text here: the page and the decision compare them as dates.
  const date = (value: Date | string) => new Date(value);
  return {
    workspaces: workspaces.map((row) => ({
      ...row,
      createdAt: date(row.createdAt),
      rejectedAt: row.rejectedAt ? date(row.rejectedAt) : null,
    })),
    brands: brands.map((row) => ({ ...row, createdAt: date(row.createdAt), updatedAt: date(row.updatedAt) })),
  };
}

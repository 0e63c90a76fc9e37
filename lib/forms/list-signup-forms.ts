import "server-only";

import { requireActorWorkspace, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { rawClient } from "@/lib/db/client";

export interface SignupFormSummary {
  id: string;
  name: string;
  brandId: string;
  topicIds: string[];
  challenge: boolean;
  createdAt: Date;
  /** Accepted submissions (bots refused or dropped are not counted). */
  submissions: number;
  /** Submissions with at least one subscription now confirmed. */
  confirmations: number;
}

/** The workspace's forms, newest first, with their counts; one form when `formId` is given. */
export async function listSignupForms(ctx: Ctx, actor: Actor, formId?: string): Promise<SignupFormSummary[]> {
  const workspaceId = requireActorWorkspace(actor);
  const sql = rawClient(ctx.db);
  const rows = await sql<
    (Omit<SignupFormSummary, "submissions" | "confirmations"> & { submissions: string; confirmations: string })[]
  >`
    select f.id, f.name, f.brand_id as "brandId", f.topic_ids as "topicIds", f.challenge, f.created_at as "createdAt",
           (select count(*) from signup_form_submissions s where s.form_id = f.id) as submissions,
           (select count(*) from signup_form_submissions s where s.form_id = f.id
              and exists (select 1 from subscriptions sub where sub.id = any(s.subscription_ids) and sub.state = 'subscribed')) as confirmations
    from signup_forms f
    where f.workspace_id = ${workspaceId} ${formId ? sql`and f.id = ${formId}` : sql``}
    order by f.id desc`;
  return rows.map((row) => ({
    ...row,
    submissions: Number(row.submissions),
    confirmations: Number(row.confirmations),
  }));
}

/** Confirmations per submission, 0 when there is none. */
export function conversionRate(form: Pick<SignupFormSummary, "submissions" | "confirmations">): number {
  return form.submissions === 0 ? 0 : form.confirmations / form.submissions;
}

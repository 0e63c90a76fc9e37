import "server-only";

import { desc, eq } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { brands, users, workspaces } from "@/lib/db/schema";

export interface SelfReview {
  kind: "workspace" | "brand";
  id: string;
  name: string;
  workspaceName: string;
  decision: "approved" | "rejected";
  reviewer: string;
}

/**
 * Decisions in force that were self-reviews (the only operator deciding on a
 * workspace they belong to), so a second operator, once there is one, can look at them again.
 */
export async function listSelfReviews(ctx: Ctx): Promise<SelfReview[]> {
  const [workspaceRows, brandRows] = await Promise.all([
    ctx.db
      .select({ id: workspaces.id, name: workspaces.name, approvedAt: workspaces.approvedAt, reviewer: users.email })
      .from(workspaces)
      .leftJoin(users, eq(users.id, workspaces.reviewedBy))
      .where(eq(workspaces.selfReviewed, true))
      .orderBy(desc(workspaces.id)),
    ctx.db
      .select({
        id: brands.id,
        name: brands.name,
        workspaceName: workspaces.name,
        reviewStatus: brands.reviewStatus,
        reviewer: users.email,
      })
      .from(brands)
      .innerJoin(workspaces, eq(workspaces.id, brands.workspaceId))
      .leftJoin(users, eq(users.id, brands.reviewedBy))
      .where(eq(brands.selfReviewed, true))
      .orderBy(desc(brands.id)),
  ]);
  return [
    ...workspaceRows.map((row) => ({
      kind: "workspace" as const,
      id: row.id,
      name: row.name,
      workspaceName: row.name,
      decision: row.approvedAt ? ("approved" as const) : ("rejected" as const),
      reviewer: row.reviewer ?? "an operator",
    })),
    // A brand back in review (an identity edit since) has no decision in force.
    ...brandRows.flatMap((row) =>
      row.reviewStatus === "pending"
        ? []
        : [
            {
              kind: "brand" as const,
              id: row.id,
              name: row.name,
              workspaceName: row.workspaceName,
              decision: row.reviewStatus,
              reviewer: row.reviewer ?? "an operator",
            },
          ],
    ),
  ];
}

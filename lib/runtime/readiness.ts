import "server-only";

import { sql } from "drizzle-orm";

import journal from "@/drizzle/meta/_journal.json";
import type { Ctx } from "@/lib/context";

import { workflowsAreEmbedded } from "./workflow-mode";

export type Check = "ok" | "failed" | "not_applicable";

export interface Readiness {
  ready: boolean;
  checks: { database: Check; migrations: Check; executor: Check };
}

/**
 * Whether this instance can take traffic: the database answers, every migration this build carries is
 * applied (a new build behind an old schema, or the reverse, is not ready), and the embedded executor
 * runs when workflows are embedded (`executorRunning`, which the caller asks of inngest/). Each check
 * says its own outcome; none throws.
 */
export async function checkReadiness(ctx: Ctx, executorRunning: () => boolean): Promise<Readiness> {
  const latest = journal.entries.at(-1)!.when;
  let database: Check = "ok";
  let migrations: Check = "failed";
  try {
    const [row] = await ctx.db.execute<{ applied: string | null }>(
      sql`select max(created_at)::text as applied from drizzle.__drizzle_migrations`,
    );
    migrations = Number(row?.applied ?? 0) === latest ? "ok" : "failed";
  } catch {
    database = (await ctx.db
      .execute(sql`select 1`)
      .then(() => "ok" as const)
      .catch(() => "failed" as const)) satisfies Check;
  }
  const executor: Check = workflowsAreEmbedded() ? (executorRunning() ? "ok" : "failed") : "not_applicable";
  return {
    ready: database === "ok" && migrations === "ok" && executor !== "failed",
    checks: { database, migrations, executor },
  };
}

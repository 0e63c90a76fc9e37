/**
 * Where a long statement's PostgreSQL time goes, plan node by plan node: the server's auto_explain
 * logs the plan of every statement slower than PLAN_MIN_MS, run (EXPLAIN ANALYZE, timing on) as
 * it runs, and the bench reads those it wants back from the server's log. pg_stat_statements sees
 * one statement where a set-wise import chunk is one statement writing five tables; its plan says
 * which of them the time went to. Timing every row of every node costs the statement a good part of
 * its time (clock reads), so the shares are what to read, and a run with it compares only with another.
 */

/** Statements slower than this are logged with their plans: an import chunk, not a point look-up. */
const PLAN_MIN_MS = 100;

export const PLAN_PROFILE_SETTINGS = {
  shared_preload_libraries: "auto_explain",
  "auto_explain.log_min_duration": String(PLAN_MIN_MS),
  "auto_explain.log_analyze": "on",
  "auto_explain.log_timing": "on",
  "auto_explain.log_triggers": "on",
  "auto_explain.log_format": "json",
};

interface PlanNode {
  "Node Type": string;
  Operation?: string;
  "Relation Name"?: string;
  "Subplan Name"?: string;
  "Actual Total Time"?: number;
  "Actual Loops"?: number;
  Plans?: PlanNode[];
}

interface LoggedPlan {
  "Query Text": string;
  Plan: PlanNode;
  Triggers?: { "Trigger Name": string; Relation?: string; Time: number }[];
}

/**
 * The server's log as the embedded server hands it over (chunks of its stderr), kept so that the
 * plans can be read back; give `log` to openDatabase.
 */
export function planLog() {
  let text = "";
  return {
    log: (chunk: string) => {
      text += chunk;
    },
    /** The logged plans of statements whose text includes `marker`, with the time each took; those the log garbled, counted. */
    plans(marker: string): { plans: { ms: number; plan: LoggedPlan }[]; unreadable: number } {
      const plans: { ms: number; plan: LoggedPlan }[] = [];
      let unreadable = 0;
      for (const entry of text.split(/LOG: {2}duration: /).slice(1)) {
        if (!entry.includes(marker)) continue;
        const ms = Number.parseFloat(entry);
        // The plan is the JSON after "plan:", each of its lines indented by a tab, up to the next log line.
        const body = entry.slice(entry.indexOf("plan:") + 5).split(/\n(?!\t)/)[0]!;
        try {
          plans.push({ ms, plan: JSON.parse(body.replace(/^\t/gm, "")) as LoggedPlan });
        } catch {
          // Two backends' messages longer than a pipe's atomic write can interleave in the log.
          unreadable++;
        }
      }
      return { plans, unreadable };
    },
  };
}

/**
 * A node's own time, without its children's: what it did itself, over all its loops. A CTE's rows
 * are computed by its own plan (listed apart, with its own times) the first time a CTE Scan reads
 * them, so a CTE Scan counts for nothing here and its reader's own time stays its own. A node with
 * CTEs or init plans below it (the statement's top) had their time inside its own, some of it twice
 * over (a CTE inside the init plan that read it, and apart): its own comes out below nothing and
 * is counted as nothing, about what such a node (a Result) does itself.
 */
function ownTimes(node: PlanNode, into: Map<string, number>) {
  const total = (n: PlanNode) => (n["Actual Total Time"] ?? 0) * (n["Actual Loops"] ?? 1);
  const children = node.Plans ?? [];
  for (const child of children) ownTimes(child, into);
  if (node["Node Type"] === "CTE Scan") return;
  const own = total(node) - children.reduce((sum, c) => sum + total(c), 0);
  const relation = node["Relation Name"];
  const key =
    node["Node Type"] === "ModifyTable"
      ? `${node.Operation!.toLowerCase()} ${relation} (its row, its indexes, its WAL)`
      : relation
        ? `read ${relation}`
        : "joins, sorts, CTE rows and expressions";
  into.set(key, (into.get(key) ?? 0) + Math.max(own, 0));
}

/** Prints the plans' time by what it went to, per row of `rows`, the costliest first. */
export function printPlanProfile(name: string, logged: ReturnType<ReturnType<typeof planLog>["plans"]>, rows: number) {
  const times = new Map<string, number>();
  let statementsMs = 0;
  for (const { ms, plan } of logged.plans) {
    statementsMs += ms;
    ownTimes(plan.Plan, times);
    for (const trigger of plan.Triggers ?? [])
      times.set(
        `trigger ${trigger["Trigger Name"]}`,
        (times.get(`trigger ${trigger["Trigger Name"]}`) ?? 0) + trigger.Time,
      );
  }
  const perRow = (ms: number) => ((ms * 1000) / Math.max(rows, 1)).toFixed(1);
  console.log(
    `\n${name}: ${logged.plans.length} statements (${logged.unreadable} unreadable in the log), ${perRow(statementsMs)} µs a row with every node timed; their own time by what it went to:`,
  );
  console.log(`${"µs/row".padStart(7)} ${"share".padStart(6)}  node`);
  for (const [key, ms] of [...times].sort((a, b) => b[1] - a[1]).filter(([, ms]) => ms >= statementsMs / 200))
    console.log(`${perRow(ms).padStart(7)} ${`${((ms / statementsMs) * 100).toFixed(0)} %`.padStart(6)}  ${key}`);
}

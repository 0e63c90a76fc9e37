import postgres from "postgres";

/**
 * Where a scenario's PostgreSQL time goes, statement by statement, from pg_stat_statements: the
 * server side of a request that a CPU profile of the app cannot see. Every statement is counted,
 * those run inside a trigger or function too (track = all), so a trigger's statements show beside
 * the one that fired them, and their time is also inside its.
 */
export const STATEMENT_PROFILE_SETTINGS = {
  shared_preload_libraries: "pg_stat_statements",
  "pg_stat_statements.track": "all",
};

/** Statements shown per scenario, the costliest first. */
const SHOWN = 14;
/** Characters of a statement's text shown: enough to tell which one it is. */
const TEXT_CHARS = 110;

/** Where a profile began: the next transaction id, for counting the transactions that wrote (each takes one id). */
export interface StatementProfileStart {
  nextXid: bigint;
}

const nextXid = async (sql: postgres.Sql) =>
  BigInt((await sql<{ xid: string }[]>`select pg_snapshot_xmax(pg_current_snapshot())::text as xid`)[0]!.xid);

export async function startStatementProfile(url: string): Promise<StatementProfileStart> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`create extension if not exists pg_stat_statements`;
    await sql`select pg_stat_statements_reset()`;
    return { nextXid: await nextXid(sql) };
  } finally {
    await sql.end();
  }
}

interface StatementRow {
  calls: string;
  ms: number;
  toplevel: boolean;
  query: string;
}

/**
 * Prints the statements since startStatementProfile, each with its calls and its execution time
 * a request (planning not counted: track_planning stays off, and the main pool plans every
 * execution), nested ones marked; and the transactions that wrote a request: transaction ids taken,
 * each a commit that waits for its WAL to reach the disk (a savepoint takes one too; the app's
 * background work in the window, folds and crons, is counted with the scenario's).
 */
export async function printStatementProfile(
  url: string,
  name: string,
  requests: number,
  start: StatementProfileStart,
  /** What the figures are counted by: a request of a route, a row of an import. */
  unit = "request",
): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql<StatementRow[]>`
      select calls::text, total_exec_time as ms, toplevel, query from pg_stat_statements
      where query not like '%pg_stat_statements%' order by total_exec_time desc`;
    const writes = Number((await nextXid(sql)) - start.nextXid);
    const topLevelMs = rows.filter((row) => row.toplevel).reduce((sum, row) => sum + row.ms, 0);
    const perRequest = (ms: number) => ((ms * 1000) / Math.max(requests, 1)).toFixed(0);
    console.log(
      `\n${name}: PostgreSQL's execution time ${perRequest(topLevelMs)} µs a ${unit}, ${(writes / Math.max(requests, 1)).toFixed(2)} transactions that wrote (top-level statements, ${requests} ${unit}s, the workflows they started included)`,
    );
    const per = unit === "request" ? "req" : unit;
    console.log(
      `${`µs/${per}`.padStart(7)} ${`calls/${per}`.padStart(9)} ${"calls".padStart(9)}  statement (› run inside a trigger or function)`,
    );
    for (const row of rows.slice(0, SHOWN)) {
      const text = row.query.replace(/\s+/g, " ").trim().slice(0, TEXT_CHARS);
      const calls = (Number(row.calls) / Math.max(requests, 1)).toFixed(2);
      console.log(
        `${perRequest(row.ms).padStart(7)} ${calls.padStart(9)} ${row.calls.padStart(9)}  ${row.toplevel ? "" : "› "}${text}`,
      );
    }
  } finally {
    await sql.end();
  }
}

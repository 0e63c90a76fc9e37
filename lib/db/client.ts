import "server-only";

import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import postgres from "postgres";

import { env } from "@/lib/env";

import * as schema from "./schema";

export type Database = PostgresJsDatabase<typeof schema> & {
  $client: postgres.Sql;
  $counters: postgres.Sql;
  $cachedPlans: postgres.Sql;
};
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
/** Either the pool or an open transaction: domain verbs accept both. */
export type Executor = Database | Transaction;

const globalForDb = globalThis as unknown as {
  __db?: { url: string; db: Database; sql: postgres.Sql; counters: postgres.Sql; cachedPlans: postgres.Sql };
};

/** The process-wide pool for DATABASE_URL (kept on globalThis so dev reloads reuse it). */
export function getDb(): Database {
  const url = process.env.DATABASE_URL;
  if (!url)
    throw new Error("DATABASE_URL is not set: start the service with `npm start`, which opens the database first");
  if (globalForDb.__db?.url !== url) {
    // JIT off: its compile time (over a second for the report triggers' plans over thousands of
    // ids) dwarfs any query this service runs; a server built without LLVM ignores it anyway.
    const sql = postgres(url, {
      max: env().DATABASE_POOL_SIZE,
      onnotice: () => {},
      connection: { jit: "off", plan_cache_mode: "force_custom_plan", ...connectionLimits() },
    });
    const counters = postgres(url, {
      max: COUNTERS_POOL_SIZE,
      onnotice: () => {},
      connection: { jit: "off", synchronous_commit: "off", ...BY_KEY_PLANS, ...connectionLimits() },
    });
    const cachedPlans = postgres(url, {
      max: CACHED_PLANS_POOL_SIZE,
      onnotice: () => {},
      connection: { jit: "off", ...BY_KEY_PLANS, ...connectionLimits() },
    });
    const db = Object.assign(drizzle(preparingEveryQuery(sql), { schema }), {
      $counters: counters,
      $cachedPlans: cachedPlans,
    });
    globalForDb.__db = { url, sql, counters, cachedPlans, db };
  }
  return globalForDb.__db.db;
}

/**
 * For connections whose statements each reach their rows through an index: the cached-plans pool,
 * the counters' pool and the listening connection. Each prepared statement is planned once per
 * connection (force_generic_plan) and keeps that plan until something invalidates it. PostgreSQL's
 * default, `auto`, went on planning the rate limit's count at every call: measured with a bare client
 * on the embedded server, 0.53–0.66 ms a call against 0.14–0.32 ms planned once. A plan made while a
 * table held a page or two would scan it whole, and go on doing so as the table grows until an
 * ANALYZE happens to invalidate it. Measured in `npm run bench:api` (auto_explain): the rate limit's
 * look-up read 5,669 rows per request (0.31–0.38 ms) instead of one index probe, and the workflow
 * executor's claim scanned every run (2,113 rows, 2–4.5 ms a claim) instead of walking the due runs'
 * index. So no plan made on them scans a table where an index reaches the rows.
 */
const BY_KEY_PLANS = { plan_cache_mode: "force_generic_plan", enable_seqscan: "off" } as const;

/**
 * Limits every pooled connection starts with, so that no request, however
 * slow its client, keeps a connection from the others for long: a statement
 * is cancelled past DATABASE_STATEMENT_TIMEOUT_SECONDS and a transaction left
 * idle past DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_SECONDS ends its session.
 * The few statements that run long on purpose lift the first for themselves
 * (`set local statement_timeout = 0`: a dry run's COPY, an export's, a vacuum);
 * migrations and the scripts open their own connections, without limits.
 */
function connectionLimits(): Record<string, number> {
  return {
    statement_timeout: env().DATABASE_STATEMENT_TIMEOUT_SECONDS * 1000,
    idle_in_transaction_session_timeout: env().DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_SECONDS * 1000,
  };
}

type Callback = (sql: postgres.Sql) => unknown;

/**
 * Statements with more parameters than this stay unprepared: their text
 * varies with the length of a list (`in (…)`, multi-row inserts), and each
 * length prepared would stay in the connection's memory until it is
 * recycled. Below it, a query site has at most this many shapes.
 */
export const MAX_PREPARED_PARAMETERS = 16;

/**
 * postgres-js prepares its tagged-template queries but not `unsafe` ones,
 * which is how Drizzle sends every query: each then costs two round trips
 * (describe, then execute) and a parse in PostgreSQL. This client prepares
 * those with few parameters, so after a connection's first use of a
 * statement it is one round trip and no parse. The clients that
 * transactions and savepoints hand out do the same. Prepared statements live
 * as long as their connection (postgres-js recycles connections after 30 to
 * 60 minutes); the pool plans each execution afresh (plan_cache_mode), so a
 * generic plan never serves a workspace of another size.
 */
function preparingEveryQuery(sql: postgres.Sql): postgres.Sql {
  return new Proxy(sql, {
    get(target, property, receiver) {
      if (property === "unsafe") {
        return (
          query: string,
          parametersOrOptions?: postgres.ParameterOrJSON<never>[] | postgres.UnsafeQueryOptions,
          options?: postgres.UnsafeQueryOptions,
        ) => {
          const [parameters, queryOptions] = Array.isArray(parametersOrOptions)
            ? [parametersOrOptions, options]
            : [[], parametersOrOptions];
          return target.unsafe(query, parameters, {
            ...queryOptions,
            prepare: parameters.length <= MAX_PREPARED_PARAMETERS,
          });
        };
      }
      if (property === "begin" || property === "savepoint") {
        return (...args: unknown[]) => {
          const callback = args.pop() as Callback;
          const open = Reflect.get(target, property) as (...args: unknown[]) => unknown;
          return open(...args, (scoped: postgres.Sql) => callback(preparingEveryQuery(scoped)));
        };
      }
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
}

/**
 * The postgres-js client behind the pool, for the few hot-path queries every
 * request pays (key look-up, rate limit, contact list): plain tagged SQL skips
 * Drizzle's per-call query building and row mapping, which measured as most of
 * their cost. Note that Drizzle configures this client to return timestamps
 * as raw strings: format them in SQL. Not for use inside a transaction.
 */
export function rawClient(db: Executor): postgres.Sql {
  if (!("$client" in db)) throw new Error("rawClient runs outside transactions only");
  return db.$client;
}

/**
 * The postgres-js transaction a Drizzle transaction runs on, for what Drizzle cannot say: a COPY
 * that belongs to the transaction's other writes.
 */
export function transactionClient(tx: Transaction): postgres.TransactionSql {
  return (tx as unknown as { session: { client: postgres.TransactionSql } }).session.client;
}

/** The pool of cachedPlansClient and cachedPlansDb: short statements, each reaching its rows by their keys. */
const CACHED_PLANS_POOL_SIZE = 10;

/**
 * A third pool, for the /v1 reads whose one plan is right whatever the workspace (a page of a
 * workspace's newest contacts walks its (workspace, id) index; a row is found by its key): each
 * prepared statement is planned once per connection (force_generic_plan), not on every call as the
 * main pool's are (force_custom_plan, for statements whose best plan depends on the workspace's
 * size). PostgreSQL's default, `auto`, would not do it here: with the page size a parameter it
 * judges the generic plan dearer and keeps planning each call. Outside transactions only; format
 * timestamps in SQL, as for rawClient (Drizzle over this pool, cachedPlansDb, makes them raw strings).
 */
export function cachedPlansClient(db: Executor): postgres.Sql {
  if (!("$cachedPlans" in db)) throw new Error("cachedPlansClient runs outside transactions only");
  return db.$cachedPlans;
}

const cachedPlansDatabases = new WeakMap<postgres.Sql, Database>();

/**
 * Where a statement of fixed shape that reaches each row by its key runs: outside a transaction, a
 * Database over the cached-plans pool (cachedPlansClient), planned once per connection rather than at
 * every call; inside one, the transaction itself. Transactions opened on it (withTransaction) run there
 * too. Only for statements whose best plan cannot depend on the workspace's size. Measured with
 * pg_stat_statements over `npm run bench:api`'s one-at-a-time requests: planning took 2.3–2.5 ms of
 * PostgreSQL's time per signup (its insert, the confirmation's decision and mail) beside 5.4–5.9 ms of
 * execution, and 0.4 ms per new contact beside 1.4–1.8 ms; on this pool, 0.5 ms and none.
 */
export function cachedPlansDb(db: Executor): Executor {
  if (!("$cachedPlans" in db)) return db;
  let cached = cachedPlansDatabases.get(db.$cachedPlans);
  if (!cached) {
    cached = Object.assign(drizzle(preparingEveryQuery(db.$cachedPlans), { schema }), {
      $counters: db.$counters,
      $cachedPlans: db.$cachedPlans,
    });
    cachedPlansDatabases.set(db.$cachedPlans, cached);
  }
  return cached;
}

/** The counters' pool: two short single statements per /v1 request at most, and one executor claim at a time. */
const COUNTERS_POOL_SIZE = 4;

/**
 * A second pool, for counters whose last moments may be lost in a crash:
 * rate-limit windows, a key's last use, and the leases the workflow executor
 * claims runs with. Its commits do not wait for the
 * WAL to reach the disk (synchronous_commit off; PostgreSQL writes it within
 * a fraction of a second), which takes a disk flush off every /v1 request.
 * A crash then forgets a few counts, never orders them wrongly. Never for
 * audience, consent or sending writes. Outside transactions only. As with
 * rawClient, Drizzle (countersDb) configures it to return timestamps as raw
 * strings: format them in SQL.
 */
export function countersClient(db: Executor): postgres.Sql {
  if (!("$counters" in db)) throw new Error("countersClient runs outside transactions only");
  return db.$counters;
}

const countersDrizzles = new WeakMap<postgres.Sql, PostgresJsDatabase<typeof schema>>();

/**
 * Drizzle over the counters' pool (countersClient), for a write of that kind that reads back typed
 * rows: the workflow executor's claims. Made once per pool, its statements prepared as the main
 * pool's are (one round trip, not describe then execute). Outside transactions only.
 */
export function countersDb(db: Executor): PostgresJsDatabase<typeof schema> {
  const client = countersClient(db);
  let counters = countersDrizzles.get(client);
  if (!counters) {
    counters = drizzle(preparingEveryQuery(client), { schema });
    countersDrizzles.set(client, counters);
  }
  return counters;
}

/** ISO 8601 UTC with milliseconds, as the API prints timestamps. */
export const ISO_TIMESTAMP = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/**
 * One connection of its own, for a process-wide cache that PostgreSQL keeps fresh with NOTIFY
 * (KeyAdmission in lib/api/authenticate.ts): never idle-closed or recycled, so that its LISTEN holds; `onclose` says
 * when it dropped (what was notified meanwhile is lost: the caller forgets what it cached). Its
 * commits do not wait for the disk, as the counters' pool's do: counters only. Made for the database
 * of getDb(); closeDb() ends it.
 */
export function openListeningConnection(handlers: {
  onnotify: (channel: string, payload: string) => void;
  onclose: () => void;
}): postgres.Sql {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set");
  const sql = postgres(url, {
    max: 1,
    idle_timeout: 0,
    max_lifetime: null,
    onnotice: () => {},
    // postgres-js calls `onnotify` for every notification its connection receives (its own `listen`
    // uses it); the option is missing from its types.
    ...({ onnotify: handlers.onnotify } as object),
    onclose: handlers.onclose,
    connection: { jit: "off", synchronous_commit: "off", ...BY_KEY_PLANS, ...connectionLimits() },
  });
  listeningConnections.add(sql);
  return sql;
}

const listeningConnections = new Set<postgres.Sql>();

/** Ends a connection from openListeningConnection. */
export async function closeListeningConnection(sql: postgres.Sql): Promise<void> {
  listeningConnections.delete(sql);
  await sql.end({ timeout: 5 });
}

export async function closeDb(): Promise<void> {
  const current = globalForDb.__db;
  globalForDb.__db = undefined;
  const listening = [...listeningConnections];
  listeningConnections.clear();
  await Promise.all([
    current?.sql.end({ timeout: 5 }),
    current?.counters.end({ timeout: 5 }),
    current?.cachedPlans.end({ timeout: 5 }),
    ...listening.map((sql) => sql.end({ timeout: 5 })),
  ]);
}

import "server-only";

import type { SQL } from "drizzle-orm";
import { PgDialect, PgTransaction } from "drizzle-orm/pg-core";

import { cachedPlansClient, MAX_PREPARED_PARAMETERS, type Executor } from "./client";

const dialect = new PgDialect();

/** A statement's answer as postgres-js gives it: rows of column values, timestamps as raw strings. */
export type RawRows = Record<string, unknown>[];

/**
 * Statements run as one transaction in one round trip: BEGIN, each statement and COMMIT written to
 * one connection of the cached-plans pool together, none waiting for the answer of the one before
 * (a transaction opened with withTransaction costs a round trip for its BEGIN and another for its
 * COMMIT). PostgreSQL runs them in order, each a statement of its own: it sees what the ones before
 * it did, and what other sessions had committed when it began, so a statement after a lock's sees
 * everything committed before the lock was granted. The first to fail aborts the others (COMMIT
 * then rolls back) and is the error thrown. Inside an open transaction they are that transaction's,
 * sent together too. For statements of fixed shape that reach their rows by key (cachedPlansDb).
 */
export async function pipelinedTransaction(db: Executor, statements: SQL[]): Promise<RawRows[]> {
  if (db instanceof PgTransaction)
    return (await Promise.all(statements.map((statement) => db.execute(statement)))) as unknown as RawRows[];
  const connection = await cachedPlansClient(db).reserve();
  try {
    const queries = [
      connection.unsafe("begin"),
      ...statements.map((statement) => {
        const { sql, params } = dialect.sqlToQuery(statement);
        return connection.unsafe(sql, params as never[], { prepare: params.length <= MAX_PREPARED_PARAMETERS });
      }),
      connection.unsafe("commit"),
    ];
    // Handed to the connection in this order, BEGIN first and COMMIT last, before any answer is awaited.
    for (const query of queries) query.execute();
    const answers = await Promise.allSettled(queries);
    const failed = answers.find((answer) => answer.status === "rejected");
    if (failed) throw failed.reason;
    return answers.slice(1, -1).map((answer) => (answer as PromiseFulfilledResult<RawRows>).value);
  } finally {
    connection.release();
  }
}

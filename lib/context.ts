import "server-only";

import { PgTransaction } from "drizzle-orm/pg-core";

import { systemClock, type Clock } from "@/lib/clock";
import { getDb, type Executor, type Transaction } from "@/lib/db/client";

/** What every domain verb receives: where to read and write, and what time it is. */
export interface Ctx {
  db: Executor;
  clock: Clock;
}

export function defaultCtx(): Ctx {
  return { db: getDb(), clock: systemClock };
}

/** Runs `fn` in a transaction, reusing the caller's when one is already open. */
export async function withTransaction<T>(ctx: Ctx, fn: (tx: Ctx & { db: Transaction }) => Promise<T>): Promise<T> {
  if (ctx.db instanceof PgTransaction) return fn(ctx as Ctx & { db: Transaction });
  return ctx.db.transaction((tx) => fn({ ...ctx, db: tx }));
}

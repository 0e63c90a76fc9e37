import fc from "fast-check";
import type postgres from "postgres";

import { v1Document } from "@/app/v1/v1-document";
import { changedTables, checksumTables } from "@/lib/testing/database-checksum";

import { judgeAnswer, type Verdict } from "./check-refusal";
import type { MalformedRequest } from "./defects";
import type { FuzzWorld } from "./fuzz-world";
import { describeRequest, malformedRequest, toRequest } from "./malformed-request";
import { operationsOf } from "./operations";
import { sendToV1 } from "./send-to-v1";

export interface FuzzOutcome {
  request: MalformedRequest;
  verdict: Verdict;
  /** Tables whose rows differ after the request (bookkeeping left out: see database-checksum.ts). */
  changed: { table: string; rowsBefore: number; rowsAfter: number }[];
}

/** Sends one malformed request through the route Next.js would pick, judges the answer and, with `sql`, compares every table before and after. */
export async function sendMalformed(request: MalformedRequest, sql: postgres.Sql | null): Promise<FuzzOutcome> {
  const before = sql ? await checksumTables(sql) : null;
  const verdict = await judgeAnswer(request.method, await sendToV1(toRequest(request)));
  const changed = before && sql ? changedTables(before, await checksumTables(sql)) : [];
  return { request, verdict, changed };
}

/** Why an outcome breaks the rule, or null when it keeps it. */
export function breach(outcome: FuzzOutcome): string | null {
  const { verdict, changed } = outcome;
  const problems = [
    verdict.kind === "server_error" ? `answered ${verdict.status}: ${verdict.body}` : null,
    verdict.kind === "bad_shape"
      ? `answered ${verdict.status} out of the error shape (${verdict.problem}): ${verdict.body}`
      : null,
    verdict.kind === "accepted" ? `was not refused: ${verdict.status} ${verdict.body}` : null,
    changed.length
      ? `changed ${changed.map((c) => `${c.table} (${c.rowsBefore} → ${c.rowsAfter} rows)`).join(", ")}`
      : null,
  ].filter(Boolean);
  return problems.length ? `${describeRequest(outcome.request)} ${problems.join("; ")}` : null;
}

export interface FuzzFigures {
  sent: number;
  refused: number;
  preflights: number;
  serverErrors: number;
  badShapes: number;
  accepted: number;
  byStatus: Record<string, number>;
  byOperation: Record<string, number>;
  byDefect: Record<string, number>;
  /** Tables changed by some request, and the sum of the row counts' changes. */
  changedTables: string[];
  rowDelta: number;
  /** The first breaches, one line each. */
  breaches: string[];
  seconds: number;
}

/**
 * `runs` malformed requests from a fixed seed, one after the other. With
 * `checkEvery` N, every table is checksummed before and after each Nth
 * request (1: every request, so a change is pinned to the request that made
 * it) and once more over the whole run.
 */
export async function runFuzz(opts: {
  world: FuzzWorld;
  sql: postgres.Sql;
  runs: number;
  seed: number;
  checkEvery?: number;
  onProgress?: (done: number) => void;
}): Promise<FuzzFigures> {
  const started = performance.now();
  const operations = operationsOf(v1Document());
  const requests = fc.sample(malformedRequest(operations, opts.world), { seed: opts.seed, numRuns: opts.runs });
  const figures: FuzzFigures = {
    sent: 0,
    refused: 0,
    preflights: 0,
    serverErrors: 0,
    badShapes: 0,
    accepted: 0,
    byStatus: {},
    byOperation: {},
    byDefect: {},
    changedTables: [],
    rowDelta: 0,
    breaches: [],
    seconds: 0,
  };
  const first = await checksumTables(opts.sql);
  const changed = new Set<string>();
  for (const [index, request] of requests.entries()) {
    const outcome = await sendMalformed(request, index % (opts.checkEvery ?? 1) === 0 ? opts.sql : null);
    const { verdict } = outcome;
    figures.sent += 1;
    figures.byStatus[verdict.status] = (figures.byStatus[verdict.status] ?? 0) + 1;
    figures.byOperation[request.operation] = (figures.byOperation[request.operation] ?? 0) + 1;
    for (const kind of request.kinds) figures.byDefect[kind] = (figures.byDefect[kind] ?? 0) + 1;
    if (verdict.kind === "refused") figures.refused += 1;
    if (verdict.kind === "preflight") figures.preflights += 1;
    if (verdict.kind === "server_error") figures.serverErrors += 1;
    if (verdict.kind === "bad_shape") figures.badShapes += 1;
    if (verdict.kind === "accepted") figures.accepted += 1;
    for (const { table, rowsBefore, rowsAfter } of outcome.changed) {
      changed.add(table);
      figures.rowDelta += Math.abs(rowsAfter - rowsBefore);
    }
    const problem = breach(outcome);
    if (problem && figures.breaches.length < 50) figures.breaches.push(problem);
    opts.onProgress?.(figures.sent);
  }
  for (const { table } of changedTables(first, await checksumTables(opts.sql))) changed.add(table);
  figures.changedTables = [...changed].sort();
  figures.seconds = (performance.now() - started) / 1000;
  return figures;
}

// npm run bench:import — a CSV import and a contact export at scale, in a fresh embedded database.
// A generated file of 1,000,000 rows (email, first and last name, two attributes) with 1 % bad rows
// (half a bad address, half a bad number), 1 % duplicates of an earlier row and 1 % addresses of
// contacts who already opted out; imported into a workspace subscribing everyone to one topic:
// upload, dry run and apply (through the embedded workflow executor, to the import's completion; its
// vacuum step after, timed on its own), each with rows/s and the
// process's peak RSS (and its RSS at the phase's start), beside the floor of the same run: a bare COPY of the same file into an
// unindexed table; and the apply's CPU time, PostgreSQL's beside this process's. Then the export of
// every contact, beside a bare COPY … TO STDOUT of the table. The WAL the apply wrote, a figure no
// machine's speed moves: bytes and records a row (the writes a row costs) beside the floor COPY's, and
// with --wal-split which tables and indexes they went to.
// Options: --rows N (default 1000000), --wal-split (keeps the apply's WAL, about 3.3 GB a million rows, and
// reads it back at the end), --statements (PostgreSQL's side of the apply, statement by statement: see
// bench/statement-profile.ts; it costs a little of every statement, so compare such a run only with another),
// --plans (the apply's chunk statements by plan node: which table's writes their time went to; see
// bench/plan-profile.ts; every node timed, so the apply is slower and only the shares are its own),
// --write-floor (a second floor for the apply, measured before it: the rows it writes for each contact,
// made beforehand and inserted bare into copies of their tables; see bench/write-floor.ts).
import { once } from "node:events";
import { createReadStream, createWriteStream, rmSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { parseArgs } from "node:util";
import postgres from "postgres";

import { functions } from "@/inngest";
import { inngest } from "@/inngest/client";
import { createEmbeddedExecutor } from "@/inngest/embedded/executor";
import { connectWorkflowEvents } from "@/inngest/emit";
import { userActor } from "@/lib/actor";
import { defineAttribute } from "@/lib/contacts/define-attribute";
import { exportContactsCsv } from "@/lib/contacts/export-contacts";
import { defaultCtx } from "@/lib/context";
import { closeDb } from "@/lib/db/client";
import { openDatabase } from "@/lib/db/database";
import { IMPORT_CHUNKS_SIDE_BY_SIDE, importChunkRows } from "@/lib/imports/apply-import-chunk";
import { checkImport } from "@/lib/imports/check-import";
import { getImportRowOrThrow } from "@/lib/imports/get-import";
import { startImport } from "@/lib/imports/import-actions";
import { checkImportSchema } from "@/lib/imports/import-schemas";
import { receiveImport } from "@/lib/imports/receive-import";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";

import { PLAN_PROFILE_SETTINGS, planLog, printPlanProfile } from "./bench/plan-profile";
import { postgresCpuSeconds } from "./bench/process-cpu";
import { printStatementProfile, startStatementProfile, STATEMENT_PROFILE_SETTINGS } from "./bench/statement-profile";
import { measureWriteFloor } from "./bench/write-floor";

const { values: options } = parseArgs({
  options: {
    rows: { type: "string", default: "1000000" },
    "wal-split": { type: "boolean", default: false },
    statements: { type: "boolean", default: false },
    plans: { type: "boolean", default: false },
    "write-floor": { type: "boolean", default: false },
  },
});
const ROWS = Number(options.rows);

const dataDir = path.resolve(".data", `bench-import-${Date.now()}`);
process.env.DATA_DIR = dataDir;
// One log line per workflow step or API request would bury the figures: only warnings and errors, unless LOG_LEVEL says.
process.env.LOG_LEVEL ||= "warn";
delete process.env.DATABASE_URL;

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
/** A growth, with its sign: a phase may end below where the import began, once the collector has run. */
const signedMib = (bytes: number) => `${bytes < 0 ? "-" : "+"}${mib(Math.abs(bytes))}`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
interface PhaseMemory {
  /** RSS as the phase began: what it took over from the phases before, collected or not. */
  startRss: number;
  /** The highest RSS while it ran, with the V8 heap and the memory V8 tracks outside it (buffers, external strings) then. */
  peak: { rss: number; heapTotal: number; external: number };
}

/**
 * The highest RSS while `work` runs, sampled every 20 ms: the process's maxRSS only ever grows, so
 * it would give every phase the peak of the phases before it.
 */
async function measured<T>(work: () => Promise<T>): Promise<{ result: T; ms: number; memory: PhaseMemory }> {
  const sample = () => {
    const { rss, heapTotal, external } = process.memoryUsage();
    return { rss, heapTotal, external };
  };
  const startRss = process.memoryUsage.rss();
  let peak = sample();
  const sampler = setInterval(() => {
    if (process.memoryUsage.rss() > peak.rss) peak = sample();
  }, 20);
  const started = performance.now();
  try {
    const result = await work();
    const ms = performance.now() - started;
    if (process.memoryUsage.rss() > peak.rss) peak = sample();
    return { result, ms, memory: { startRss, peak } };
  } finally {
    clearInterval(sampler);
  }
}

connectWorkflowEvents();
const serverLog = options.plans ? planLog() : null;
const database = await openDatabase({
  settings: {
    ...(options.statements ? STATEMENT_PROFILE_SETTINGS : {}),
    ...(options.plans ? PLAN_PROFILE_SETTINGS : {}),
    // Both want a library loaded at the server's start.
    ...(options.statements && options.plans
      ? {
          shared_preload_libraries: `${STATEMENT_PROFILE_SETTINGS.shared_preload_libraries},${PLAN_PROFILE_SETTINGS.shared_preload_libraries}`,
        }
      : {}),
  },
  ...(serverLog ? { log: serverLog.log } : {}),
});
process.env.DATABASE_URL = database.url;
try {
  const sql = postgres(database.url, { max: 1, onnotice: () => {} });
  const ctx = defaultCtx();
  const { workspaceId, ownerUserId, brandId } = await seedWorkspace(ctx);
  const actor = userActor(ownerUserId, workspaceId);
  const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
  await defineAttribute(ctx, actor, { key: "plan", type: "string" });
  await defineAttribute(ctx, actor, { key: "seats", type: "number" });

  // 1 % of the file's addresses belong to contacts who opted out of everything.
  const optedOut = Math.floor(ROWS / 100);
  await sql`
    insert into contacts (id, workspace_id, email, opted_out_at)
    select 'ct_optout' || lpad(g::text, 9, '0'), ${workspaceId}, 'person' || (g * 100 + 7) || '@example.com', now()
    from generate_series(0, ${optedOut - 1}) g`;
  const file = path.join(dataDir, "contacts.csv");
  await writeFile(file);
  const bytes = statSync(file).size;
  console.log(
    `generated ${ROWS.toLocaleString("en")} rows (${mib(bytes)}); ${optedOut.toLocaleString("en")} of their contacts opted out\n`,
  );

  // The floor: the same file COPYed into an unindexed table, nothing checked.
  await sql`create table bench_copy_floor (email text, first_name text, last_name text, plan text, seats text)`;
  const floorWalBefore = await walWritten(sql);
  let t = performance.now();
  const copy = await sql`copy bench_copy_floor from stdin with (format csv, header true)`.writable();
  await pipeline(createReadStream(file), copy);
  const floorMs = performance.now() - t;
  const floorWalBytes = (await walWritten(sql)).bytes - floorWalBefore.bytes;
  const writeFloor = options["write-floor"]
    ? await measureWriteFloor(database.url, "bench_copy_floor", { workspaceId, topicId, brandId }, importChunkRows())
    : null;

  const rssBefore = process.memoryUsage.rss();
  const upload = await measured(() =>
    receiveImport(ctx, actor, { fileName: "contacts.csv", body: createReadStream(file) }),
  );
  const { importId } = upload.result;

  const check = await measured(() =>
    checkImport(
      ctx,
      actor,
      importId,
      checkImportSchema.parse({
        mapping: ["email", "first_name", "last_name", "attributes.plan", "attributes.seats"],
        topicIds: [topicId],
        consentAsserted: true,
        policy: "keep",
      }),
    ),
  );
  const checked = check.result;

  // The apply ends when the import is completed; the workflow's last step, the vacuum and analyze of
  // the tables it wrote (done in the background, the import being done by then), is timed on its own.
  const executor = createEmbeddedExecutor({ client: inngest, functions });
  if (options["wal-split"]) {
    // A checkpoint during the apply would otherwise recycle the segments the split reads back.
    await sql`alter system set wal_keep_size = '16GB'`;
    await sql`select pg_reload_conf()`;
  }
  const statements = options.statements ? await startStatementProfile(database.url) : null;
  const walBefore = await walWritten(sql);
  const cpuBefore = { postgres: postgresCpuSeconds(dataDir), node: process.cpuUsage() };
  let workflow: Promise<void> = Promise.resolve();
  const apply = await measured(async () => {
    await startImport(ctx, actor, importId);
    workflow = (async () => {
      while (
        (await executor.runDue(ctx)) > 0 ||
        (await getImportRowOrThrow(ctx, actor, importId)).status === "applying"
      )
        await new Promise((resolve) => setTimeout(resolve, 20));
    })();
    while ((await getImportRowOrThrow(ctx, actor, importId)).status === "applying")
      await new Promise((resolve) => setTimeout(resolve, 20));
  });
  const postgresCpu = postgresCpuSeconds(dataDir);
  const nodeCpu = process.cpuUsage(cpuBefore.node);
  const walAfter = await walWritten(sql);
  // Read as the apply ends, before the vacuum step's statements join it.
  if (statements) await printStatementProfile(database.url, "apply", ROWS, statements, "row");
  // The chunks' one statement each: the one with the CTE that creates contacts.
  if (serverLog) printPlanProfile("apply's chunk statements", serverLog.plans("created as ("), ROWS);
  const vacuum = await measured(() => workflow);
  const applied = (await getImportRowOrThrow(ctx, actor, importId)).applied!;

  console.log(`dry run found: ${JSON.stringify(checked)}`);
  console.log(`apply did:     ${JSON.stringify(applied)}\n`);
  const row = (name: string, ms: number, memory: PhaseMemory | null) =>
    console.log(
      `${name.padEnd(34)} ${seconds(ms).padStart(9)} ${Math.round(ROWS / (ms / 1000))
        .toLocaleString("en")
        .padStart(11)} ${(ms / floorMs).toFixed(2).padStart(9)} ${(memory ? mib(memory.peak.rss) : "").padStart(
        10,
      )} ${(memory ? signedMib(memory.peak.rss - rssBefore) : "").padStart(12)} ${(memory
        ? mib(memory.startRss)
        : ""
      ).padStart(10)} ${(memory ? `${mib(memory.peak.heapTotal)} + ${mib(memory.peak.external)}` : "").padStart(18)}`,
    );
  // Memory's floor is the process before the import: the growth is what the phase itself holds.
  console.log(
    `${"phase".padEnd(34)} ${"time".padStart(9)} ${"rows/s".padStart(11)} ${"× floor".padStart(9)} ${"peak RSS".padStart(10)} ${"over before".padStart(12)} ${"at start".padStart(10)} ${"heap + external".padStart(18)}`,
  );
  row("floor: bare COPY, unindexed table", floorMs, null);
  row("upload (stored and parsed)", upload.ms, upload.memory);
  row("dry run", check.ms, check.memory);
  row("apply (contact-import workflow)", apply.ms, apply.memory);
  row("then vacuum and analyze", vacuum.ms, vacuum.memory);
  const cpu = (seconds: number) =>
    `${seconds.toFixed(2)} s (${((seconds / (apply.ms / 1000)) * 100).toFixed(0)} % of a core)`;
  console.log(
    `apply CPU: PostgreSQL ${postgresCpu === null || cpuBefore.postgres === null ? "unknown" : cpu(postgresCpu - cpuBefore.postgres)}, this process ${cpu((nodeCpu.user + nodeCpu.system) / 1e6)}; ${availableParallelism()} cores`,
  );
  console.log(
    `RSS before the import (memory's floor): ${mib(rssBefore)}; peak RSS of each phase sampled while it ran, its RSS at its start, and at the peak the V8 heap + the memory V8 tracks outside it (buffers, external strings): a phase starts with what the phases before it left and the collector has not taken back yet`,
  );
  const walBytes = walAfter.bytes - walBefore.bytes;
  const walRecords = walAfter.records - walBefore.records;
  console.log(
    `apply WAL: ${mib(walBytes)} in ${walRecords.toLocaleString("en")} records, ${Math.round(walBytes / ROWS).toLocaleString("en")} bytes and ${(walRecords / ROWS).toFixed(1)} records a row (${(walAfter.fullPages - walBefore.fullPages).toLocaleString("en")} full-page images); the floor's COPY ${Math.round(floorWalBytes / ROWS).toLocaleString("en")} bytes a row, ${(walBytes / floorWalBytes).toFixed(1)}× it`,
  );
  console.log("goals: apply ≤ 20× the floor and ≤ 256 MiB RSS; dry run ≤ 10 s");
  if (writeFloor) {
    console.log(
      `\nthe apply's write floor: ${writeFloor.rows.toLocaleString("en")} rows a table, made beforehand, inserted bare into empty copies (same indexes; no triggers, no foreign keys), ${IMPORT_CHUNKS_SIDE_BY_SIDE} chunks of ${importChunkRows().toLocaleString("en")} side by side`,
    );
    const line = (name: string, ms: number) =>
      console.log(`${name.padEnd(38)} ${seconds(ms).padStart(9)} ${(ms / floorMs).toFixed(2).padStart(9)}`);
    console.log(`${"".padEnd(38)} ${"time".padStart(9)} ${"× floor".padStart(9)}`);
    for (const part of writeFloor.tables) line(part.name, part.ms);
    line("the four tables as they are", writeFloor.totalMs);
    line(writeFloor.contactsKeysOnly.name, writeFloor.contactsKeysOnly.ms);
    console.log(`apply ÷ its write floor: ${(apply.ms / writeFloor.totalMs).toFixed(2)}`);
  }

  // Export: every contact of the workspace, streamed; the floor is the bare table COPYed out.
  const contactsTotal = (
    await sql<{ n: number }[]>`select count(*)::int as n from contacts where workspace_id = ${workspaceId}`
  )[0]!.n;
  t = performance.now();
  // COPY takes no parameters: the id is ours and quoted as a literal.
  const out = await sql
    .unsafe(
      `copy (select * from contacts where workspace_id = '${workspaceId.replace(/'/g, "''")}') to stdout with (format csv)`,
    )
    .readable();
  await pipeline(out, new Writable({ write: (_chunk, _encoding, done) => done() }));
  const exportFloorMs = performance.now() - t;
  const rssBeforeExport = process.memoryUsage().rss;
  let rssMaxExport = rssBeforeExport;
  t = performance.now();
  let exportedBytes = 0;
  for await (const chunk of exportContactsCsv(ctx, actor, {})) {
    exportedBytes += chunk.csv.length;
    rssMaxExport = Math.max(rssMaxExport, process.memoryUsage().rss);
  }
  const exportMs = performance.now() - t;
  console.log(`\nexport of ${contactsTotal.toLocaleString("en")} contacts (${mib(exportedBytes)} of CSV)`);
  console.log(
    `${"".padEnd(34)} ${"time".padStart(9)} ${"rows/s".padStart(11)} ${"× floor".padStart(9)} ${"RSS growth".padStart(10)}`,
  );
  console.log(
    `${"floor: COPY … TO STDOUT".padEnd(34)} ${seconds(exportFloorMs).padStart(9)} ${Math.round(
      contactsTotal / (exportFloorMs / 1000),
    )
      .toLocaleString("en")
      .padStart(11)} ${"1.00".padStart(9)}`,
  );
  console.log(
    `${"export (CSV with consent evidence)".padEnd(34)} ${seconds(exportMs).padStart(9)} ${Math.round(
      contactsTotal / (exportMs / 1000),
    )
      .toLocaleString("en")
      .padStart(
        11,
      )} ${(exportMs / exportFloorMs).toFixed(2).padStart(9)} ${mib(rssMaxExport - rssBeforeExport).padStart(10)}`,
  );
  console.log("goal: ≥ 100,000 rows/s with flat memory");
  if (options["wal-split"]) await printWalSplit(sql, walBefore.lsn, walAfter.lsn);
  await sql.end();
} finally {
  await closeDb();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
}

interface WalPosition {
  lsn: string;
  bytes: number;
  records: number;
  fullPages: number;
}

/**
 * How much WAL the server has written so far, and where it is. Bytes from the WAL's position, exact;
 * records and full-page images from pg_stat_wal, which each process adds to within a second or so.
 */
async function walWritten(sql: postgres.Sql): Promise<WalPosition> {
  const [row] = await sql<{ lsn: string; bytes: string; records: string; full_pages: string }[]>`
    select pg_current_wal_lsn()::text as lsn, pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::text as bytes,
      wal_records::text as records, wal_fpi::text as full_pages
    from pg_stat_wal`;
  return {
    lsn: row!.lsn,
    bytes: Number(row!.bytes),
    records: Number(row!.records),
    fullPages: Number(row!.full_pages),
  };
}

/**
 * The apply's WAL by the table or index it changed, read back from the WAL itself (pg_walinspect):
 * each record counted whole under the relation of its first block, so an index's page split counts
 * as the index's. Where an imported row's writes go, beside what they cost in all.
 */
async function printWalSplit(sql: postgres.Sql, from: string, to: string) {
  await sql`create extension if not exists pg_walinspect`;
  const rows = await sql<{ relation: string; records: string; bytes: string }[]>`
    select coalesce(pg_filenode_relation(b.reltablespace, b.relfilenode)::text, 'filenode ' || b.relfilenode) as relation,
      count(*)::text as records, sum(b.record_length)::text as bytes
    from pg_get_wal_block_info(${from}::pg_lsn, ${to}::pg_lsn) b
    where b.block_id = 0
    group by 1 order by sum(b.record_length) desc`;
  const total = rows.reduce((sum, row) => sum + Number(row.bytes), 0);
  console.log(`\napply WAL by relation (records with a block; ${mib(total)} in all)`);
  console.log(
    `${"relation".padEnd(48)} ${"records".padStart(11)} ${"bytes a row".padStart(12)} ${"share".padStart(7)}`,
  );
  for (const row of rows.filter((row) => Number(row.bytes) >= total / 1000))
    console.log(
      `${row.relation.padEnd(48)} ${Number(row.records).toLocaleString("en").padStart(11)} ${Math.round(
        Number(row.bytes) / ROWS,
      )
        .toLocaleString("en")
        .padStart(12)} ${`${((Number(row.bytes) / total) * 100).toFixed(1)} %`.padStart(7)}`,
    );
}

/** The file: names and attributes vary; every 100th row is bad, every 100th a duplicate, every 100th an opted-out contact's. */
async function writeFile(file: string) {
  const out = createWriteStream(file);
  out.write("email,first_name,last_name,plan,seats\n");
  const plans = ["free", "pro", "team", "enterprise"];
  let batch = "";
  for (let i = 0; i < ROWS; i++) {
    let email = `person${i}@example.com`;
    let seats = String(i % 50);
    if (i % 100 === 3) email = i % 200 === 3 ? `not-an-address-${i}` : email;
    if (i % 200 === 103) seats = "many";
    if (i % 100 === 5 && i > 100) email = `person${i - 50}@example.com`; // a duplicate of an earlier row
    batch += `${email},First${i % 997},"Last, ${i % 1009}",${plans[i % 4]},${seats}\n`;
    if (batch.length > 1 << 20) {
      if (!out.write(batch)) await once(out, "drain");
      batch = "";
    }
  }
  out.end(batch);
  await once(out, "finish");
}

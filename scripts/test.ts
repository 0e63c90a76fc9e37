// `npm test`: every Vitest test, then the Playwright end-to-end tests against a fresh build.
// Ends with one line `N passed, M failed`; exits non-zero on any failure or when no test ran.
// End-to-end tests are mandatory in CI (CI=true) and run elsewhere when Chromium is found.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";

import { resolveDataDir } from "@/lib/runtime/data-dir";
import { databaseUrl } from "@/lib/testing/test-database";

const args = new Set(process.argv.slice(2));
const runUnit = !args.has("--e2e-only");
const runE2e = !args.has("--unit-only");
const inCi = process.env.CI === "true" || process.env.CI === "1";
const chromium = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const dataDir = resolveDataDir({ DATA_DIR: ".data" });

interface Tally {
  passed: number;
  failed: number;
}
const total: Tally = { passed: 0, failed: 0 };

function run(command: string, commandArgs: string[], env: NodeJS.ProcessEnv = process.env): number {
  const result = spawnSync(command, commandArgs, { stdio: "inherit", env });
  return result.status ?? 1;
}

function readJson<T>(file: string): T | null {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as T;
  } catch {
    return null;
  }
}

function unitTests(): void {
  const file = path.join(dataDir, "vitest-results.json");
  rmSync(file, { force: true });
  const code = run("npx", ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${file}`]);
  const report = readJson<{ numPassedTests: number; numFailedTests: number }>(file);
  total.passed += report?.numPassedTests ?? 0;
  total.failed += report?.numFailedTests ?? 0;
  // A crash or a failing hook fails the run even when no single test is marked failed.
  if (code !== 0 && (report?.numFailedTests ?? 0) === 0) total.failed += 1;
}

async function endToEndTests(): Promise<void> {
  if (!existsSync(chromium)) {
    if (inCi) {
      console.error(`Chromium not found at ${chromium}: end-to-end tests are mandatory in CI.`);
      total.failed += 1;
    } else {
      console.warn(`Chromium not found at ${chromium}: end-to-end tests not run (install Debian's chromium).`);
    }
    return;
  }
  if (run("npm", ["run", "build"]) !== 0) {
    total.failed += 1;
    return;
  }
  // A fresh installation for the run: its own DATA_DIR, or its own database on DATABASE_URL's server.
  const runId = `e2e-${process.pid}-${Date.now()}`;
  const e2eDataDir = path.join(dataDir, runId);
  mkdirSync(e2eDataDir, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: e2eDataDir,
    E2E_RESULTS_FILE: path.join(e2eDataDir, "results.json"),
  };
  const serverUrl = process.env.DATABASE_URL;
  const database = runId.replaceAll("-", "_");
  if (serverUrl) {
    const sql = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await sql.unsafe(`create database "${database}"`);
    await sql.end();
    env.DATABASE_URL = databaseUrl(serverUrl, database);
  }
  try {
    const code = run("npx", ["playwright", "test"], env);
    const report = readJson<{ stats: { expected: number; unexpected: number; flaky: number } }>(env.E2E_RESULTS_FILE!);
    total.passed += report?.stats.expected ?? 0;
    total.failed += (report?.stats.unexpected ?? 0) + (report?.stats.flaky ?? 0);
    if (code !== 0 && (report?.stats.unexpected ?? 0) === 0) total.failed += 1;
  } finally {
    if (serverUrl) {
      const sql = postgres(serverUrl, { max: 1, onnotice: () => {} });
      await sql.unsafe(`drop database if exists "${database}" with (force)`);
      await sql.end();
    }
    rmSync(e2eDataDir, { recursive: true, force: true });
  }
}

if (runUnit) unitTests();
if (runE2e) await endToEndTests();

console.log(`${total.passed} passed, ${total.failed} failed`);
process.exit(total.failed > 0 || total.passed === 0 ? 1 : 0);

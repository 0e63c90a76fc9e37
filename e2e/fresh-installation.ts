import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";

import { databaseUrl } from "@/lib/testing/test-database";

export interface FreshInstallation {
  url: string;
  stop(): Promise<void>;
}

/**
 * A second installation of the built app, empty as on a fresh clone: its own data folder (and so its
 * own embedded PostgreSQL), or its own database on DATABASE_URL's server. The first-run page exists
 * only until its first owner is made, so a test that walks from there cannot share the suite's app.
 * `E2E_FRESH_MODE=dev` serves it with `next dev` instead, to work on a test without a build.
 */
export async function startFreshInstallation(opts: { port: number; dnsPort: number }): Promise<FreshInstallation> {
  const runId = `fresh-${process.pid}-${Date.now()}`;
  const dataDir = path.join(path.resolve(process.env.DATA_DIR || ".data"), runId);
  mkdirSync(dataDir, { recursive: true });
  const url = `http://127.0.0.1:${opts.port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(opts.port),
    APP_URL: url,
    MAIL_TRANSPORT: "local",
    WEBHOOK_ALLOW_PRIVATE_TARGETS: "1",
    TRUSTED_PROXIES: "127.0.0.1,::1",
    DNS_SERVERS: `127.0.0.1:${opts.dnsPort}`,
  };
  delete env.DATABASE_URL;
  if (process.env.DATABASE_URL) {
    const database = runId.replaceAll("-", "_");
    const sql = postgres(process.env.DATABASE_URL, { max: 1, onnotice: () => {} });
    await sql.unsafe(`create database "${database}"`);
    await sql.end();
    env.DATABASE_URL = databaseUrl(process.env.DATABASE_URL, database);
  }
  const mode = process.env.E2E_FRESH_MODE === "dev" ? "dev" : "start";
  const server: ChildProcess = spawn("npx", ["tsx", "scripts/serve.ts", mode], {
    env,
    stdio: ["ignore", "ignore", "pipe"],
    detached: true,
  });
  let stderr = "";
  server.stderr!.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const exited = new Promise<number | null>((resolve) => server.once("exit", resolve));
  // Ready once the sign-in page answers; a server that exits first fails the test with its last words.
  for (;;) {
    const code = await Promise.race([exited, new Promise<undefined>((resolve) => setTimeout(resolve, 500))]);
    if (code !== undefined) throw new Error(`the fresh installation exited (${code}): ${stderr}`);
    const answer = await fetch(`${url}/signin`).catch(() => null);
    if (answer?.ok) break;
  }
  return {
    url,
    stop: async () => {
      if (server.exitCode === null) process.kill(-server.pid!, "SIGTERM");
      await exited;
    },
  };
}

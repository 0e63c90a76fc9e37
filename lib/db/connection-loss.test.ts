import net from "node:net";
import postgres from "postgres";
import { afterAll, beforeAll, expect, it } from "vitest";

// A transaction whose connection is lost (the server restarted or failed over, an operator ended the
// backend, a timeout ended it, the network reset it) must fail like any other error: postgres.js 3.4.9
// wrote the transaction's ROLLBACK to the closed socket, an exception nothing could catch, and the
// reconnected connection replayed the old backend's error or hung (patches/postgres+3.4.9.patch).
// Each test expects the failure before it ends the backend: the failure can arrive while the test still
// waits for the terminating statement, and a rejection nothing handles yet is reported as an error.

const url = process.env.DATABASE_URL!;
const admin = postgres(url, { max: 1, onnotice: () => {} });

beforeAll(async () => {
  await admin`create table if not exists connection_loss_probe (n int)`;
});

afterAll(async () => {
  await admin.end();
});

/** The pool answers query after query, each on a live backend. */
async function expectPoolAnswers(sql: postgres.Sql) {
  for (let n = 1; n <= 3; n++) {
    const [row] = await sql`select ${n}::int as n`;
    expect(row).toEqual({ n });
  }
  const [inTransaction] = await sql.begin((tx) => tx`select ${4}::int as n`);
  expect(inTransaction).toEqual({ n: 4 });
}

/** Resolves with the backend pid the transaction reports once it runs, so the test can end that backend. */
function backendPid(): { seen: Promise<number>; report: (pid: number) => void } {
  let report!: (pid: number) => void;
  const seen = new Promise<number>((resolve) => (report = resolve));
  return { seen, report };
}

/** A transaction asleep in a statement, and its backend's pid once it runs. */
function sleepingTransaction(sql: postgres.Sql) {
  const pid = backendPid();
  const transaction = sql.begin(async (tx) => {
    const [row] = await tx<{ pid: number }[]>`select pg_backend_pid() as pid`;
    pid.report(row!.pid);
    await tx`select pg_sleep(30)`;
  });
  return { transaction, pid: pid.seen };
}

it("a transaction whose backend is terminated mid-query fails with the lost connection, and the pool goes on with a new one", async () => {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const { transaction, pid } = sleepingTransaction(sql);
    const terminated = await pid;
    const failed = expect(transaction).rejects.toThrow();
    await admin`select pg_terminate_backend(${terminated})`;
    await failed;
    await expectPoolAnswers(sql);
    const [row] = await sql<{ pid: number }[]>`select pg_backend_pid() as pid`;
    expect(row!.pid).not.toBe(terminated);
  } finally {
    await sql.end();
  }
});

it("ending the pool while a transaction waits settles once that transaction's connection is lost, not at a timeout", async () => {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const { transaction, pid } = sleepingTransaction(sql);
  const terminated = await pid;
  // No timeout: the end waits for the transaction in hand, as a graceful shutdown does.
  const ended = sql.end();
  const failed = expect(transaction).rejects.toThrow();
  await admin`select pg_terminate_backend(${terminated})`;
  await failed;
  await ended;
  await expect(sql`select 1`).rejects.toThrow();
});

it("a statement queued before ending the pool still runs when the waiting transaction's connection is lost; the end settles after it and leaves no connection open", async () => {
  const applicationName = `end-probe-${Math.floor(Math.random() * 1e9)}`;
  const sql = postgres(url, { max: 1, onnotice: () => {}, connection: { application_name: applicationName } });
  const { transaction, pid } = sleepingTransaction(sql);
  const terminated = await pid;
  const settled: string[] = [];
  // Queued for the one connection, which the transaction holds.
  const queued = sql<{ n: number }[]>`select 1::int as n`.then((rows) => (settled.push("queued"), rows));
  const ended = sql.end().then(() => settled.push("ended"));
  const failed = expect(transaction).rejects.toThrow();
  await admin`select pg_terminate_backend(${terminated})`;
  await failed;
  expect(await queued).toEqual([{ n: 1 }]);
  await ended;
  expect(settled).toEqual(["queued", "ended"]);
  await expect(sql`select 1`).rejects.toThrow();
  // The connection that ran the queued statement is closed too: its backend goes away.
  const open = async () =>
    (
      await admin<
        { n: number }[]
      >`select count(*)::int as n from pg_stat_activity where application_name = ${applicationName}`
    )[0]!.n;
  for (let tries = 0; tries < 100 && (await open()) > 0; tries++)
    await new Promise((resolve) => setTimeout(resolve, 50));
  expect(await open()).toBe(0);
});

it("a transaction ended by idle_in_transaction_session_timeout fails, and none of its statements runs in the transaction that gets the connection next", async () => {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  try {
    const marker = Math.floor(Math.random() * 1e9);
    let nextBegun!: () => void;
    const begun = new Promise<void>((resolve) => (nextBegun = resolve));
    const dead = sql.begin(async (tx) => {
      await tx`set local idle_in_transaction_session_timeout = 100`;
      // The server ends the session meanwhile, and the waiting transaction gets the connection made anew.
      await begun;
      await tx`insert into connection_loss_probe values (${marker})`;
    });
    const next = sql.begin(async (tx) => {
      nextBegun();
      await sleep(200);
      await tx`insert into connection_loss_probe values (${marker + 1})`;
    });
    await expect(dead).rejects.toThrow();
    await next;
    const rows = await admin`select n from connection_loss_probe where n in (${marker}, ${marker + 1})`;
    expect(rows.map((row) => row.n)).toEqual([marker + 1]);
    await expectPoolAnswers(sql);
  } finally {
    await sql.end();
  }
});

it("a transaction whose connection the network resets mid-query fails, and the pool goes on with a new one", async () => {
  const relay = await relayToServer();
  const sql = postgres(relay.url, { max: 1, onnotice: () => {} });
  try {
    const { transaction, pid } = sleepingTransaction(sql);
    const reset = await pid;
    for (const client of relay.clients) client.resetAndDestroy();
    await expect(transaction).rejects.toThrow();
    await expectPoolAnswers(sql);
    await admin`select pg_terminate_backend(${reset})`;
  } finally {
    await sql.end();
    relay.close();
  }
});

it("every statement a transaction has queued fails when its backend is terminated, none left waiting", async () => {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const pid = backendPid();
    let statements: Promise<PromiseSettledResult<unknown>[]> | undefined;
    const transaction = sql.begin(async (tx) => {
      const [row] = await tx<{ pid: number }[]>`select pg_backend_pid() as pid`;
      // More than postgres.js sends at once (100): the rest wait in the transaction's own queue.
      const sent = Array.from({ length: 300 }, () => tx`select pg_sleep(0.1)`);
      statements = Promise.allSettled(sent);
      pid.report(row!.pid);
      await Promise.all(sent);
    });
    const failed = expect(transaction).rejects.toThrow();
    await admin`select pg_terminate_backend(${await pid.seen})`;
    await failed;
    const settled = await statements!;
    expect(settled.every((statement) => statement.status === "rejected")).toBe(true);
    await expectPoolAnswers(sql);
  } finally {
    await sql.end();
  }
});

it("a reserved connection whose backend is terminated fails its next statement, gives nothing back when released, and the pool goes on", async () => {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const marker = Math.floor(Math.random() * 1e9);
    const reserved = await sql.reserve();
    const [row] = await reserved<{ pid: number }[]>`select pg_backend_pid() as pid`;
    const sleeping = reserved`select pg_sleep(30)`;
    const failed = expect(sleeping).rejects.toThrow();
    await admin`select pg_terminate_backend(${row!.pid})`;
    await failed;
    await expect(reserved`insert into connection_loss_probe values (${marker})`).rejects.toThrow();
    // The pool took the connection back when it closed: a release must not hand it out a second time.
    reserved.release();
    await expectPoolAnswers(sql);
    expect(await admin`select n from connection_loss_probe where n = ${marker}`).toEqual([]);
  } finally {
    await sql.end();
  }
});

/**
 * A TCP relay on loopback between postgres.js and PostgreSQL, so that a test can reset the client's side or
 * answer it itself: `fromClient` sees what the client sends, and keeps it from the server by returning false.
 */
async function relayToServer(
  fromClient: (chunk: Buffer, client: net.Socket, server: net.Socket) => boolean = () => true,
) {
  const target = new URL(url);
  const clients = new Set<net.Socket>();
  const relay = net.createServer((client) => {
    clients.add(client);
    const server = net.connect(Number(target.port || 5432), target.hostname);
    server.pipe(client);
    client.on("data", (chunk: Buffer) => fromClient(chunk, client, server) && server.write(chunk));
    client.on("error", () => server.destroy());
    server.on("error", () => client.destroy());
    client.on("close", () => (clients.delete(client), server.destroy()));
  });
  await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
  const relayed = new URL(url);
  relayed.hostname = "127.0.0.1";
  relayed.port = String((relay.address() as net.AddressInfo).port);
  return { url: relayed.toString(), clients, close: () => relay.close() };
}

/** PostgreSQL's answer to a backend ended by an administrator: an ErrorResponse (FATAL, 57P01), after which it closes. */
function fatalTermination(): Buffer {
  const fields = Buffer.from("SFATAL\0VFATAL\0C57P01\0Mterminating connection due to administrator command\0\0");
  const header = Buffer.alloc(5);
  header.write("E");
  header.writeInt32BE(fields.length + 4, 1);
  return Buffer.concat([header, fields]);
}

it("a backend ended while its connection is still starting does not fail the next connection's first query with its error", async () => {
  let ended = false;
  // Once, the connection's start-up query (the array types postgres.js reads) is answered as PostgreSQL answers a
  // terminated backend, and the connection closed.
  const relay = await relayToServer((chunk, client, server) => {
    if (ended || !chunk.includes("typarray")) return true;
    ended = true;
    server.destroy();
    client.end(fatalTermination());
    return false;
  });
  const sql = postgres(relay.url, { max: 1, onnotice: () => {} });
  try {
    await expectPoolAnswers(sql);
    expect(ended).toBe(true);
  } finally {
    await sql.end();
    relay.close();
  }
});

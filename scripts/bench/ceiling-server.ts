// The benchmark's ceiling: a bare Node HTTP server doing the single query each /v1 route boils down to,
// with no framework, authentication, rate limit or validation.
import { createServer } from "node:http";
import postgres from "postgres";

import { newId } from "@/lib/ids";

const sql = postgres(process.env.DATABASE_URL!, { max: Number(process.env.DATABASE_POOL_SIZE || 10) });
const workspaceId = process.env.BENCH_WORKSPACE_ID!;

const server = createServer(async (request, response) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  response.setHeader("content-type", "application/json");
  if (request.method === "GET") {
    const rows = await sql`select id, email, first_name, last_name, attributes, created_at from contacts
                           where workspace_id = ${workspaceId} order by id desc limit 101`;
    response.end(JSON.stringify({ data: rows.slice(0, 100) }));
    return;
  }
  const { email } = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  const [row] =
    await sql`insert into contacts (id, workspace_id, email) values (${newId("ct")}, ${workspaceId}, ${email})
                          on conflict (workspace_id, email) do update set updated_at = now() returning id, email, created_at`;
  response.end(JSON.stringify({ data: row }));
});
server.listen(Number(process.env.PORT), "127.0.0.1");

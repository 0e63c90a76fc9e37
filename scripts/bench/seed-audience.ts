// The seeded audience of the contacts benches (bench:dashboard, bench:bulk): one workspace of `contacts`
// contacts, half subscribed to a topic, a tenth on a list, 2 % opted out, one in 20,000 with a rare last name.
import type postgres from "postgres";

/**
 * One workspace's audience, written by PostgreSQL itself (generate_series), with the report triggers on as in production.
 * Contact i (from 1) is `ct_` and i zero-padded to 26 digits, `seed<i>@bench.example`; odd i are subscribed to
 * the topic, i ≡ 1 (mod 10) are on the list, i ≡ 0 (mod 50) opted out of everything.
 */
export async function seedAudience(sql: postgres.Sql, contacts: number) {
  const workspaceId = "ws_bench0000000000000000000000";
  const brandId = "br_bench0000000000000000000000";
  const topicId = "tp_bench0000000000000000000000";
  const listId = "ls_bench0000000000000000000000";
  await sql`insert into workspaces (id, name) values (${workspaceId}, 'Bench')`;
  // The signed-in owner the journey's screens read as.
  await sql`insert into users (id, email, name) values ('usr_bench', 'owner@bench.example', 'Owner')`;
  await sql`insert into memberships (workspace_id, user_id, role, accepted_at) values (${workspaceId}, 'usr_bench', 'owner', now())`;
  await sql`insert into brands (id, workspace_id, name, legal_name, postal_address, website_url, sender_email) values (${brandId}, ${workspaceId}, 'Bench', 'Bench Ltd', '1 Way', 'https://bench.example', 'news@bench.example')`;
  await sql`insert into topics (id, workspace_id, brand_id, name) values (${topicId}, ${workspaceId}, ${brandId}, 'News')`;
  await sql`insert into lists (id, workspace_id, brand_id, name) values (${listId}, ${workspaceId}, ${brandId}, 'Customers')`;
  // Ids sort like the service's (time-ordered): a fixed prefix and the row number, zero-padded.
  await sql`insert into contacts (id, workspace_id, email, first_name, last_name, opted_out_at)
            select 'ct_' || lpad(i::text, 26, '0'), ${workspaceId}, 'seed' || i || '@bench.example',
                   (array['Ada','Grace','Alan','Edsger','Barbara'])[1 + i % 5], case when i % 20000 = 0 then 'Hopper' else 'Seed' end,
                   case when i % 50 = 0 then now() end
            from generate_series(1, ${contacts}) i`;
  await sql`insert into subscriptions (id, workspace_id, contact_id, topic_id, state, source, subscribed_at)
            select 'sub_' || lpad(i::text, 26, '0'), ${workspaceId}, 'ct_' || lpad(i::text, 26, '0'), ${topicId}, 'subscribed', 'api', now()
            from generate_series(1, ${contacts}, 2) i`;
  await sql`insert into list_members (list_id, contact_id, workspace_id)
            select ${listId}, 'ct_' || lpad(i::text, 26, '0'), ${workspaceId} from generate_series(1, ${contacts}, 10) i`;
  await sql`vacuum analyze`;
  await sql`checkpoint`;
  return { workspaceId, brandId, topicId, listId };
}

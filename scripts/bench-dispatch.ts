// npm run bench:dispatch — on a fresh embedded database, each figure beside a floor measured in the same run:
//  0. the exclusion preview of a campaign to 1,000,000 confirmed subscribers (list filter, 1 % suppressed);
//  1. the audience snapshot of that campaign; floor: a bare INSERT … SELECT of the same rows into a table
//     without indexes (the preview is compared with it too);
//  2. dispatch of 100,000 mails through the SMTP transport to a local SMTP sink, run by the embedded
//     executor as the app runs it, with peak memory of this process; floor: a bare pooled SMTP client
//     sending the same messages, prebuilt, to the same sink, unsigned and signed with the same key. Every
//     recipient is at one mailbox provider whose rate is set out of reach: the pacing's own cost, per batch;
//  2b. the pacing's own cost, each part beside its floor (scripts/bench/pacing-cost.ts), as a share of the dispatch;
//  3. a campaign split across five mailbox providers, paced, the sink answering 421 to every recipient at
//     one of them: the rate each of the other four is delivered at, beside the rate it was given.
// Options: --subscribers N (default 1000000), --mails N (default 100000), --batch N (default 500),
// --per-provider N (default 1800), --provider-rate N per minute (default 1200), --before P (the dispatch's
// share of the signed floor in % measured before pacing, to print the pacing's cost against it).
// BENCH_DEBUG=1 also prints the five-provider run's acceptances, provider@ms-since-start:count per batch.
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { eq, sql } from "drizzle-orm";

import type { ClaimedSend } from "@/lib/campaigns/claim-batch";
import type { BuiltMessage } from "@/lib/mail/build-message";
import type { DkimKey, OutgoingMessage } from "@/lib/mail/outgoing-message";

import { seedBenchWorkspace } from "./bench/bench-workspace";

const { values: options } = parseArgs({
  options: {
    subscribers: { type: "string", default: "1000000" },
    mails: { type: "string", default: "100000" },
    batch: { type: "string", default: "500" },
    "per-provider": { type: "string", default: "1800" },
    "provider-rate": { type: "string", default: "1200" },
    before: { type: "string" },
  },
});
const SUBSCRIBERS = Number(options.subscribers);
const MAILS = Number(options.mails);
const SINK_PORT = 2526;
const PER_PROVIDER = Number(options["per-provider"]);
const PROVIDER_RATE = Number(options["provider-rate"]);
const REFUSED_DOMAIN = "outlook.com";

const dataDir = path.resolve(".data", `bench-dispatch-${Date.now()}`);
process.env.DATA_DIR = dataDir;
// One log line per workflow step or API request would bury the figures: only warnings and errors, unless LOG_LEVEL says.
process.env.LOG_LEVEL ||= "warn";
delete process.env.DATABASE_URL;
process.env.MAIL_TRANSPORT = "smtp";
process.env.SMTP_URL = `smtp://127.0.0.1:${SINK_PORT}`;
process.env.SMTP_POOL_SIZE = "8";
process.env.DISPATCH_BATCH_SIZE = options.batch;

// Imported after the environment is set: the transport and pool read it.
const { openDatabase } = await import("@/lib/db/database");
const { defaultCtx } = await import("@/lib/context");
const { closeDb } = await import("@/lib/db/client");
const { campaigns } = await import("@/lib/db/schema");
const { snapshotAudience } = await import("@/lib/campaigns/snapshot-audience");
const { previewAudience } = await import("@/lib/campaigns/preview-audience");
const { sendCampaignNow } = await import("@/lib/campaigns/campaign-actions");
const { systemActor } = await import("@/lib/actor");
const { createEmbeddedExecutor } = await import("@/inngest/embedded/executor");
const { inngest, routeEmbeddedEvents } = await import("@/inngest/client");
const { functions } = await import("@/inngest");
const { connectWorkflowEvents } = await import("@/inngest/emit");
const { getMailTransport } = await import("@/lib/mail/get-mail-transport");
const { clearForSending } = await import("@/lib/testing/clear-for-sending");
const { bareSmtpFloor } = await import("./bench/bare-smtp-client");
const { pacingCost } = await import("./bench/pacing-cost");
const { buildBatch } = await import("@/lib/campaigns/build-batch");
const { buildMessage } = await import("@/lib/mail/build-message");
const { setProviderRate } = await import("@/lib/campaigns/provider-pacing");
const { classifyCampaignDomains } = await import("@/lib/campaigns/classify-campaign-domains");
const { cancelCampaign } = await import("@/lib/campaigns/campaign-actions");
const { MAILBOX_PROVIDERS } = await import("@/lib/deliverability/mailbox-provider");

connectWorkflowEvents();
const database = await openDatabase();
const ctx = defaultCtx();
let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);
const seconds = (ms: number) => (ms / 1000).toFixed(2);

/** The messages the dispatch of `campaignId` sent, rendered and composed again as it built them, and the key it signed with. */
async function dispatchedMessages(campaignId: string) {
  const [campaign] = await ctx.db.select().from(campaigns).where(eq(campaigns.id, campaignId));
  const rows = await ctx.db.execute<ClaimedSend>(
    sql`select id, contact_id, email, provider from sends where campaign_id = ${campaignId} order by id`,
  );
  const messages: BuiltMessage[] = [];
  const outgoing: OutgoingMessage[] = [];
  let dkim: DkimKey | undefined;
  for (let from = 0; from < rows.length; from += Number(options.batch)) {
    const built = await buildBatch(ctx, campaign!, rows.slice(from, from + Number(options.batch)));
    for (const message of built.messages) messages.push(buildMessage(message, ctx.clock));
    outgoing.push(...built.messages);
    dkim ??= built.messages[0]?.dkim;
  }
  if (messages.length !== MAILS || !dkim)
    throw new Error(`expected ${MAILS} signed messages, rebuilt ${messages.length}`);
  return { messages, outgoing, dkim };
}

/**
 * 3. A campaign of PER_PROVIDER recipients at each of five providers, each paced at PROVIDER_RATE per
 * minute, the sink answering 421 to REFUSED_DOMAIN: dispatched by the executor until the other four are
 * delivered; each one's rate once its opening minute's worth went, from the sends' acceptance times.
 */
async function fiveProviders(
  executor: { runDue: (at: typeof ctx) => Promise<number> },
  ws: string,
  br: string,
): Promise<string> {
  const topic = "tp_bench00000000000000000five";
  const domains = ["gmail.com", REFUSED_DOMAIN, "yahoo.com", "icloud.com", "five.example"];
  await ctx.db.execute(
    sql`insert into topics (id, workspace_id, brand_id, name, requires_confirmation) values (${topic}, ${ws}, ${br}, 'Five', false)`,
  );
  for (const [d, domain] of domains.entries()) {
    await ctx.db.execute(sql`insert into contacts (id, workspace_id, email, first_name)
      select 'ct_five' || ${d} || lpad(to_hex(i), 21, '0'), ${ws}, 'five' || i || '@' || ${domain}, 'F' || i from generate_series(1, ${PER_PROVIDER}::int) i`);
    await ctx.db.execute(sql`insert into subscriptions (id, workspace_id, contact_id, topic_id, state, source)
      select 'sub_five' || ${d} || lpad(to_hex(i), 20, '0'), ${ws}, 'ct_five' || ${d} || lpad(to_hex(i), 21, '0'), ${topic}, 'subscribed', 'api' from generate_series(1, ${PER_PROVIDER}::int) i`);
  }
  for (const provider of MAILBOX_PROVIDERS)
    await setProviderRate(ctx, systemActor("bench", ws), { provider, ratePerMinute: PROVIDER_RATE });
  const campaign = "cmp_bench000000000000000000five";
  await ctx.db.insert(campaigns).values({
    id: campaign,
    workspaceId: ws,
    brandId: br,
    topicId: topic,
    name: "Five",
    subject: "Hello {{contact.first_name}}",
    html: "<p>Hello {{contact.first_name}}</p>",
  });
  const start = Date.now();
  await sendCampaignNow(ctx, systemActor("bench", ws), campaign);
  const delivered = sql`select provider, count(*)::int as n from sends where campaign_id = ${campaign} and state = 'accepted' group by 1`;
  const others = MAILBOX_PROVIDERS.filter((provider) => provider !== "microsoft");
  for (;;) {
    await executor.runDue(ctx);
    const rows = await ctx.db.execute<{ provider: string; n: number }>(delivered);
    if (others.every((provider) => Number(rows.find((row) => row.provider === provider)?.n ?? 0) === PER_PROVIDER))
      break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  // A provider's bucket starts full: its first PROVIDER_RATE sends go at once. Its rate is what followed them.
  const rows = await ctx.db.execute<{ provider: string; n: number; from: number; last: number }>(sql`
    with ranked as (
      select provider, accepted_at, row_number() over (partition by provider order by accepted_at, id) as rn
      from sends where campaign_id = ${campaign} and state = 'accepted')
    select provider, count(*) filter (where rn > ${PROVIDER_RATE})::int as n,
           extract(epoch from max(accepted_at) filter (where rn = ${PROVIDER_RATE})) * 1000 as from,
           extract(epoch from max(accepted_at)) * 1000 as last
    from ranked group by 1`);
  const [refused] = await ctx.db.execute<{ queued: number; deferred: number; bounced: number }>(sql`
    select count(*) filter (where state = 'queued')::int as queued, count(*) filter (where deferrals > 0)::int as deferred,
           count(*) filter (where bounced_at is not null)::int as bounced
    from sends where campaign_id = ${campaign} and provider = 'microsoft'`);
  if (process.env.BENCH_DEBUG)
    console.log(
      (
        await ctx.db.execute<{ provider: string; at: string; n: number; d: number }>(
          sql`select provider, extract(epoch from accepted_at) * 1000 - ${start} as at, count(*)::int as n from sends where campaign_id = ${campaign} and state = 'accepted' group by 1, 2 order by 2`,
        )
      )
        .map((row) => `${row.provider}@${Math.round(Number(row.at))}:${row.n}`)
        .join(" "),
    );
  await cancelCampaign(ctx, systemActor("bench", ws), campaign);
  await executor.runDue(ctx);
  const figures = others.map((provider) => {
    const row = rows.find((candidate) => candidate.provider === provider)!;
    const minutes = (Number(row.last) - Number(row.from)) / 60_000;
    return `${provider} ${Math.round(Number(row.n) / minutes).toLocaleString("en")}/min`;
  });
  return `five providers, ${PER_PROVIDER.toLocaleString("en")} recipients each, each paced at ${PROVIDER_RATE.toLocaleString("en")}/min, the sink answering 421 to every ${REFUSED_DOMAIN} recipient: after each one's first minute's worth at once, ${figures.join(", ")} (goal: the rate given); microsoft: ${Number(refused!.deferred).toLocaleString("en")} deferred, ${Number(refused!.queued).toLocaleString("en")} still queued, ${refused!.bounced} bounced, in ${((Date.now() - start) / 1000).toFixed(1)} s`;
}

try {
  // A workspace with two topics: one of SUBSCRIBERS confirmed subscribers (all on the list, 1 % suppressed), one of MAILS.
  const ws = "ws_bench0000000000000000000000";
  const br = "br_bench0000000000000000000000";
  const big = "tp_bench0000000000000000000big";
  const small = "tp_bench000000000000000000small";
  const list = "ls_bench0000000000000000000000";
  const seedStart = Date.now();
  await seedBenchWorkspace(ctx, { workspaceId: ws, brandId: br });
  await ctx.db.execute(
    sql`insert into topics (id, workspace_id, brand_id, name, requires_confirmation) values (${big}, ${ws}, ${br}, 'Big', false), (${small}, ${ws}, ${br}, 'Small', false)`,
  );
  await ctx.db.execute(
    sql`insert into lists (id, workspace_id, brand_id, name) values (${list}, ${ws}, ${br}, 'Everyone')`,
  );
  // Out of the sandbox (reviewed, brand approved, sender domain ready): every subscriber may be mailed.
  await clearForSending(ctx, ws);
  const total = Math.max(SUBSCRIBERS, MAILS);
  for (let start = 0; start < total; start += 250_000) {
    const end = Math.min(start + 250_000, total) - 1;
    await ctx.db.execute(sql`insert into contacts (id, workspace_id, email, first_name)
      select 'ct_' || lpad(to_hex(i), 26, '0'), ${ws}, 'person' || i || '@bench.example', 'P' || i from generate_series(${start}::int, ${end}::int) i`);
  }
  await ctx.db.execute(sql`insert into subscriptions (id, workspace_id, contact_id, topic_id, state, source)
    select 'sub_b' || lpad(to_hex(i), 25, '0'), ${ws}, 'ct_' || lpad(to_hex(i), 26, '0'), ${big}, 'subscribed', 'api' from generate_series(0, ${SUBSCRIBERS - 1}::int) i`);
  await ctx.db.execute(sql`insert into subscriptions (id, workspace_id, contact_id, topic_id, state, source)
    select 'sub_s' || lpad(to_hex(i), 25, '0'), ${ws}, 'ct_' || lpad(to_hex(i), 26, '0'), ${small}, 'subscribed', 'api' from generate_series(0, ${MAILS - 1}::int) i`);
  await ctx.db.execute(
    sql`insert into list_members (list_id, contact_id, workspace_id) select ${list}, 'ct_' || lpad(to_hex(i), 26, '0'), ${ws} from generate_series(0, ${SUBSCRIBERS - 1}::int) i`,
  );
  await ctx.db.execute(sql`insert into suppressions (id, workspace_id, email, reason)
    select 'sup_' || lpad(to_hex(i), 26, '0'), ${ws}, 'person' || i || '@bench.example', 'manual' from generate_series(0, ${SUBSCRIBERS - 1}::int, 100) i where i >= ${MAILS}::int`);
  // A database at rest, as autovacuum and the checkpointer leave it, rather than one still digesting the bulk load.
  await ctx.db.execute(sql`vacuum analyze`);
  await ctx.db.execute(sql`checkpoint`);
  console.log(`seeded ${total.toLocaleString("en")} contacts in ${seconds(Date.now() - seedStart)} s`);

  // 1. The audience snapshot.
  const bigCampaign = "cmp_bench000000000000000000big";
  await ctx.db.insert(campaigns).values({
    id: bigCampaign,
    workspaceId: ws,
    brandId: br,
    topicId: big,
    listId: list,
    name: "Big",
    subject: "Hi",
    html: "<p>Hi</p>",
    status: "sending",
  });
  // 0. What the sender sees before sending: the same audience, classified.
  const previewStart = Date.now();
  const preview = await previewAudience(ctx, systemActor("bench"), bigCampaign);
  const previewMs = Date.now() - previewStart;
  const excluded = preview.exclusions.reduce((sum, exclusion) => sum + exclusion.count, 0);

  // As the dispatch run does before it: the audience's domains classified (all at bench.example, reserved: no lookup).
  const classifyStart = Date.now();
  await classifyCampaignDomains(ctx, bigCampaign);
  console.log(
    `recipient domains classified in ${seconds(Date.now() - classifyStart)} s (before the snapshot, as dispatch does)`,
  );
  const snapStart = Date.now();
  const { recipients } = await snapshotAudience(ctx, bigCampaign);
  const snapMs = Date.now() - snapStart;
  // The snapshot's floor: the same rows copied by one bare INSERT … SELECT into a table without indexes.
  await ctx.db.execute(
    sql`create table bench_snapshot_floor (id text, workspace_id text, campaign_id text, contact_id text, email text, state text, created_at timestamptz, updated_at timestamptz)`,
  );
  const floorStart = Date.now();
  await ctx.db.execute(
    sql`insert into bench_snapshot_floor select id, workspace_id, campaign_id, contact_id, email, state, created_at, updated_at from sends where campaign_id = ${bigCampaign}`,
  );
  const floorMs = Date.now() - floorStart;
  console.log(
    `floor: bare INSERT … SELECT of the ${recipients.toLocaleString("en")} snapshot rows into a table without indexes in ${seconds(floorMs)} s`,
  );
  console.log(
    `exclusion preview: ${preview.recipients.toLocaleString("en")} recipients, ${excluded.toLocaleString("en")} left out, in ${seconds(previewMs)} s = ${(previewMs / floorMs).toFixed(2)} × the floor (goal ≤ 2 s; ${(previewMs / snapMs).toFixed(2)} × the snapshot)`,
  );
  console.log(
    `snapshot: ${recipients.toLocaleString("en")} recipients of ${SUBSCRIBERS.toLocaleString("en")} subscribers in ${seconds(snapMs)} s = ${(snapMs / floorMs).toFixed(2)} × the floor (goal ≤ 2 ×)`,
  );
  if (preview.recipients !== recipients)
    throw new Error(`the preview counted ${preview.recipients} recipients, the snapshot ${recipients}`);
  // At rest again before the dispatch, as after the seed: the snapshot and its floor just wrote two million
  // rows, whose autovacuum and checkpoint would otherwise share the two cores with the dispatch more than
  // with its floors, which run after it.
  await ctx.db.execute(sql`drop table bench_snapshot_floor`);
  await ctx.db.execute(sql`vacuum analyze sends`);
  await ctx.db.execute(sql`checkpoint`);

  // 2. Dispatch through SMTP to the sink, run by the embedded executor.
  // Started with node itself (not npx) so that SIGTERM reaches it and it reports what it received.
  const sink = spawn(process.execPath, ["--import", "tsx", "scripts/bench/smtp-sink.ts"], {
    env: { ...process.env, PORT: String(SINK_PORT), REFUSE_DOMAIN: REFUSED_DOMAIN },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let sinkOutput = "";
  sink.stdout.on("data", (chunk) => (sinkOutput += chunk));
  while (!sinkOutput.includes("ready")) await new Promise((resolve) => setTimeout(resolve, 100));
  const executor = createEmbeddedExecutor({ client: inngest, functions });
  routeEmbeddedEvents((events) => executor.enqueue(ctx, events));
  const smallCampaign = "cmp_bench00000000000000000small";
  await ctx.db.insert(campaigns).values({
    id: smallCampaign,
    workspaceId: ws,
    brandId: br,
    topicId: small,
    name: "Small",
    subject: "Hello {{contact.first_name}}",
    html: '<p>Hello {{contact.first_name}}, see <a href="https://bench.example/news">the news</a>.</p>',
    text: "Hello {{contact.first_name}}",
  });
  // Every recipient is at one provider (bench.example: `other`), whose rate is set out of reach: each batch
  // still takes and spends the provider buckets, so the figure is the pacing's cost, not its waiting.
  await setProviderRate(ctx, systemActor("bench", ws), { provider: "other", ratePerMinute: 1_000_000 });
  peakRss = process.memoryUsage().rss;
  const sendStart = Date.now();
  await sendCampaignNow(ctx, systemActor("bench", ws), smallCampaign);
  while (
    (await ctx.db.select({ status: campaigns.status }).from(campaigns).where(eq(campaigns.id, smallCampaign)))[0]!
      .status !== "sent"
  ) {
    await executor.runDue(ctx);
  }
  const sendMs = Date.now() - sendStart;
  const dispatchPeakRss = peakRss;
  // The floors send the same messages, rendered and composed beforehand, each to the same recipient.
  const { messages: dispatched, outgoing, dkim } = await dispatchedMessages(smallCampaign);
  const [providers] = await ctx.db.execute<{ n: number }>(
    sql`select count(distinct provider)::int as n from sends where campaign_id = ${smallCampaign}`,
  );
  if (Number(providers!.n) !== 1) throw new Error(`expected one mailbox provider, found ${providers!.n}`);
  const floor = {
    port: SINK_PORT,
    messages: dispatched,
    connections: Number(process.env.SMTP_POOL_SIZE),
    batch: Number(options.batch),
  };
  const floorSendMs = await bareSmtpFloor(floor);
  // Dispatch signs every message with the brand domain's DKIM key (RSA 2048): the second floor signs with it too.
  const signedFloorSendMs = await bareSmtpFloor({ ...floor, dkim });
  const pacing = await pacingCost({
    ctx,
    campaignId: smallCampaign,
    batch: Number(options.batch),
    messages: outgoing,
    port: SINK_PORT,
    connections: Number(process.env.SMTP_POOL_SIZE),
  });
  const meanKb = dispatched.reduce((sum, message) => sum + message.raw.length, 0) / dispatched.length / 1024;
  const five = await fiveProviders(executor, ws, br);
  sink.kill("SIGTERM");
  await new Promise((resolve) => sink.once("exit", resolve));
  await getMailTransport().close();
  const rate = (ms: number) => Math.round(MAILS / (ms / 1000)).toLocaleString("en");
  const share = (floorMs: number) => `${((floorMs / sendMs) * 100).toFixed(0)} %`;
  console.log(
    `floor: bare pooled SMTP client, the dispatch's ${MAILS.toLocaleString("en")} messages (${meanKb.toFixed(1)} KiB each, prebuilt) to the same sink in ${seconds(floorSendMs)} s = ${rate(floorSendMs)} mails/s`,
  );
  console.log(
    `floor, DKIM-signed: the same, each message signed on the way with the brand's key (RSA 2048), in ${seconds(signedFloorSendMs)} s = ${rate(signedFloorSendMs)} mails/s`,
  );
  console.log(
    `dispatch: ${MAILS.toLocaleString("en")} mails through SMTP, DKIM-signed, in ${seconds(sendMs)} s = ${rate(sendMs)} mails/s = ${share(floorSendMs)} of the floor, ${share(signedFloorSendMs)} of the signed floor (goal ≥ 70 %); the sink received ${(Number(/received (\d+)/.exec(sinkOutput)?.[1] ?? 0) - 4 * PER_PROVIDER).toLocaleString("en")} in all five`,
  );
  const claimCost = pacing.pacedClaimMs - pacing.bareClaimMs;
  const sendCost = pacing.pacedSendMs - pacing.bareSendMs;
  const pct = (ms: number) => `${((ms / sendMs) * 100).toFixed(1)} %`;
  console.log(
    `pacing's claim: ${seconds(pacing.pacedClaimMs)} s for the ${MAILS.toLocaleString("en")} sends against ${seconds(pacing.bareClaimMs)} s for a bare locked UPDATE of the same batches (floor) = ${(pacing.pacedClaimMs / pacing.bareClaimMs).toFixed(2)} ×; pacing's hand-over (a bounded number in flight, a refusing provider's rest not tried): ${seconds(pacing.pacedSendMs)} s against ${seconds(pacing.bareSendMs)} s with every message of a batch handed over at once (floor) = ${(pacing.pacedSendMs / pacing.bareSendMs).toFixed(2)} ×`,
  );
  console.log(
    `pacing per provider, every recipient at one provider: adds ${seconds(claimCost)} s (claim) + ${seconds(sendCost)} s (hand-over) = ${pct(claimCost + sendCost)} of the dispatch's ${seconds(sendMs)} s (goal ≤ 10 %)`,
  );
  if (options.before) {
    const now = (signedFloorSendMs / sendMs) * 100;
    const before = Number(options.before);
    const slower = ((before - now) / before) * 100;
    console.log(
      `pacing per provider, every recipient at one provider: ${now.toFixed(0)} % of the signed floor against ${before.toFixed(0)} % before pacing = ${slower > 0 ? `${slower.toFixed(1)} % slower` : `no slower (${(-slower).toFixed(1)} % faster)`} (goal ≤ 10 % slower)`,
    );
  }
  console.log(five);
  console.log(
    `peak memory of the dispatching process while dispatching: ${Math.round(dispatchPeakRss / 1024 / 1024)} MiB RSS (batch ${options.batch}, ${process.env.SMTP_POOL_SIZE} SMTP connections)`,
  );
} finally {
  clearInterval(sampler);
  await closeDb();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
}

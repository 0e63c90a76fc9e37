import type { ChildProcess } from "node:child_process";
import { eq, sql } from "drizzle-orm";

import { spawnWorker } from "@/inngest/embedded/testing/spawn-worker";
import { systemActor } from "@/lib/actor";
import { pauseCampaign, resumeCampaign, sendCampaignNow } from "@/lib/campaigns/campaign-actions";
import { createCampaign } from "@/lib/campaigns/save-campaign";
import { systemClock } from "@/lib/clock";
import type { Ctx } from "@/lib/context";
import { campaigns, workspaceBilling } from "@/lib/db/schema";
import { foldContactCounts } from "@/lib/reports/fold-contact-counts";

import { clearForSending } from "./clear-for-sending";
import { seedTopic, seedWorkspace } from "./factories";

/**
 * Chaos in dispatch: a campaign sent by a worker process (the embedded executor, as the app runs it)
 * that is SIGKILLed at random points of its progress and restarted, some kills while the campaign is
 * paused or just resumed. At the end every recipient must have exactly one message and every counter
 * must equal a recount. Kill points are chosen by progress (mails sent), not by time, so a slower
 * machine meets the same phases.
 */
export interface ChaosOptions {
  recipients: number;
  kills: number;
  /** Recipients per batch: small enough that a kill lands between and inside many batches. */
  batchSize: number;
  /** A seeded random source, so a failing run can be repeated. */
  random: () => number;
  log?: (line: string) => void;
}

export interface ChaosResult {
  kills: number;
  /** Where each kill landed: snapshot (audience not yet counted), batches, paused, resumed. */
  phases: Record<string, number>;
  recipients: number;
  messages: number;
  /** Recipients with more than one message, and the extra messages. */
  duplicates: number;
  /** Recipients with no message. */
  lost: number;
  /** Each maintained figure that differs from its recount, as `name: kept ≠ recounted`. */
  mismatches: string[];
  ms: number;
}

/** A seeded generator (mulberry32): the same seed gives the same kill points. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const startWorker = (batchSize: number) =>
  spawnWorker({ MAIL_TRANSPORT: "local", DISPATCH_BATCH_SIZE: String(batchSize), DISPATCH_BATCH_PAUSE_MS: "0" });

export async function runDispatchChaos(ctx: Ctx, options: ChaosOptions): Promise<ChaosResult> {
  const log = options.log ?? (() => {});
  const started = Date.now();
  const live = { ...ctx, clock: systemClock };
  const { workspaceId, campaignId } = await seedBulkCampaign(live, options.recipients);
  const actor = systemActor("chaos", workspaceId);
  const mailed = async () =>
    Number(
      (
        await ctx.db.execute<{ n: number }>(
          sql`select count(*)::int as n from mail_messages where workspace_id = ${workspaceId}`,
        )
      )[0]!.n,
    );
  const status = async () =>
    (
      await ctx.db
        .select({ status: campaigns.status, recipientCount: campaigns.recipientCount })
        .from(campaigns)
        .where(eq(campaigns.id, campaignId))
    )[0]!;

  // Kill points: the first while the audience is taken, the others at random mail counts across the campaign.
  const points = Array.from({ length: options.kills - 1 }, () =>
    Math.floor(options.random() * options.recipients * 0.95),
  ).sort((a, b) => a - b);
  const phases: Record<string, number> = {};
  await sendCampaignNow(live, actor, campaignId);
  let kills = 0;
  for (let k = 0; k < options.kills; k++) {
    const worker = startWorker(options.batchSize);
    const { status: state } = await status();
    let phase: string;
    if (k === 0) {
      // Killed as soon as it has started work: the snapshot of the audience (or the first batch, on a fast machine).
      while ((await status()).recipientCount === null && !(await hasStarted(ctx, campaignId))) await pause(5);
      phase = (await status()).recipientCount === null ? "snapshot" : "batches";
    } else if (k % 4 === 2 && state === "sending") {
      // Paused mid-campaign: the worker is killed while the run winds down or sleeps.
      await waitFor(async () => (await mailed()) >= points[k - 1]!, worker);
      await pauseCampaign(live, actor, campaignId);
      await pause(options.random() * 500);
      phase = "paused";
    } else if (state === "paused") {
      // Resumed: killed while the resumed run starts again.
      await resumeCampaign(live, actor, campaignId);
      await pause(options.random() * 500);
      phase = "resumed";
    } else {
      await waitFor(async () => (await mailed()) >= points[k - 1]! || (await status()).status === "sent", worker);
      phase = (await status()).recipientCount === null ? "snapshot" : "batches";
    }
    const sent = (await status()).status === "sent";
    await kill(worker);
    if (sent) break;
    kills++;
    phases[phase] = (phases[phase] ?? 0) + 1;
    log(`kill ${kills}: ${phase}, ${await mailed()} mails so far`);
  }
  if ((await status()).status === "paused") await resumeCampaign(live, actor, campaignId);

  // A last worker carries the campaign to the end: a killed run's lease lapses and it is taken over.
  const last = startWorker(options.batchSize);
  await waitFor(async () => (await status()).status === "sent", last);
  await kill(last);

  const counts = await ctx.db.execute<{ recipients: number; messages: number; duplicates: number; lost: number }>(sql`
    with per as (
      select s.email, count(m.id) as n
      from sends s left join mail_messages m on m.workspace_id = ${workspaceId} and m.to_address = s.email
      where s.campaign_id = ${campaignId}
      group by s.id, s.email)
    select count(*)::int as recipients, coalesce(sum(n), 0)::int as messages,
           coalesce(sum(greatest(n - 1, 0)), 0)::int as duplicates, count(*) filter (where n = 0)::int as lost from per`);
  const result = counts[0]!;
  return {
    kills,
    phases,
    recipients: result.recipients,
    messages: result.messages,
    duplicates: result.duplicates,
    lost: result.lost + Math.max(0, options.recipients - result.recipients),
    mismatches: await recount(ctx, workspaceId, campaignId),
    ms: Date.now() - started,
  };
}

/** A workspace cleared for sending, with `recipients` confirmed subscribers written in bulk, and a campaign with a merge tag. */
export async function seedBulkCampaign(ctx: Ctx, recipients: number) {
  const { workspaceId, brandId } = await seedWorkspace(ctx);
  await clearForSending(ctx, workspaceId);
  await ctx.db
    .update(workspaceBilling)
    .set({ sendAllowance: recipients * 10 })
    .where(eq(workspaceBilling.workspaceId, workspaceId));
  const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
  const prefix = workspaceId.slice(-8);
  await ctx.db.execute(sql`insert into contacts (id, workspace_id, email, first_name)
    select 'ct_' || ${prefix} || lpad(to_hex(i), 18, '0'), ${workspaceId}, 'person' || i || '@chaos.example', 'P' || i from generate_series(1, ${recipients}::int) i`);
  await ctx.db.execute(sql`insert into subscriptions (id, workspace_id, contact_id, topic_id, state, source)
    select 'sub_' || ${prefix} || lpad(to_hex(i), 18, '0'), ${workspaceId}, 'ct_' || ${prefix} || lpad(to_hex(i), 18, '0'), ${topicId}, 'subscribed', 'api' from generate_series(1, ${recipients}::int) i`);
  const { campaignId } = await createCampaign(ctx, systemActor("chaos", workspaceId), {
    brandId,
    topicId,
    name: "Chaos",
    subject: "Hello {{contact.first_name}}",
    html: "<p>Hello {{contact.first_name}}, from {{brand.name}}.</p>",
  });
  return { workspaceId, campaignId };
}

async function hasStarted(ctx: Ctx, campaignId: string): Promise<boolean> {
  const [row] = await ctx.db.execute<{ started: boolean }>(
    sql`select send_id_prefix is not null as started from campaigns where id = ${campaignId}`,
  );
  return Boolean(row?.started);
}

/** Polls until `done`, failing if the worker exits first (it never should on its own). */
async function waitFor(done: () => Promise<boolean>, worker: ChildProcess): Promise<void> {
  while (!(await done())) {
    if (worker.exitCode !== null) throw new Error(`the worker exited with ${worker.exitCode} before it was killed`);
    await pause(20);
  }
}

async function kill(worker: ChildProcess): Promise<void> {
  if (worker.exitCode !== null || worker.signalCode !== null) return;
  const exited = new Promise((resolve) => worker.once("exit", resolve));
  worker.kill("SIGKILL");
  await exited;
}

/** Each kept counter of the campaign and the workspace against a recount from the raw rows. */
export async function recount(ctx: Ctx, workspaceId: string, campaignId: string): Promise<string[]> {
  const mismatches: string[] = [];
  const compare = (name: string, kept: unknown, recounted: unknown) => {
    if (Number(kept) !== Number(recounted)) mismatches.push(`${name}: ${kept} ≠ ${recounted}`);
  };
  const [kept] = await ctx.db.execute<Record<string, number>>(
    sql`select recipients, queued, accepted, failed, skipped, cancelled from report_campaign_counters where campaign_id = ${campaignId}`,
  );
  const [counted] = await ctx.db.execute<Record<string, number>>(sql`
    select count(*)::int as recipients, count(*) filter (where state in ('queued', 'sending'))::int as queued, count(*) filter (where state = 'accepted')::int as accepted,
           count(*) filter (where state = 'failed')::int as failed_all, count(*) filter (where state = 'cancelled')::int as cancelled
    from sends where campaign_id = ${campaignId}`);
  const [campaign] = await ctx.db
    .select({ recipientCount: campaigns.recipientCount })
    .from(campaigns)
    .where(eq(campaigns.id, campaignId));
  compare("campaign.recipient_count", campaign!.recipientCount, counted!.recipients);
  for (const name of ["recipients", "queued", "accepted", "cancelled"])
    compare(`report_campaign_counters.${name}`, kept?.[name], counted![name]);
  compare(
    "report_campaign_counters.failed + skipped",
    Number(kept?.failed) + Number(kept?.skipped),
    counted!.failed_all,
  );
  const [billing] = await ctx.db
    .select({ used: workspaceBilling.sendsUsed })
    .from(workspaceBilling)
    .where(eq(workspaceBilling.workspaceId, workspaceId));
  compare("workspace_billing.sends_used", billing!.used, counted!.accepted);
  // The workspace's and brands' counters against report_rebuild, the recount from raw rows.
  const figures = async () =>
    JSON.stringify([
      ...(await ctx.db.execute(
        sql`select contacts_total, contacts_unsubscribed, contacts_bounced, contacts_complained from report_workspace_counters where workspace_id = ${workspaceId}`,
      )),
      ...(await ctx.db.execute(
        sql`select brand_id, lists_total, list_memberships, topics_total, campaigns_total, campaigns_draft, campaigns_scheduled, campaigns_sending, campaigns_paused, campaigns_sent, campaigns_cancelled from report_brand_counters where workspace_id = ${workspaceId} order by brand_id`,
      )),
      ...(await ctx.db.execute(
        sql`select recipients, queued, accepted, failed, skipped, cancelled from report_campaign_counters where workspace_id = ${workspaceId} order by campaign_id`,
      )),
    ]);
  await foldContactCounts(ctx, workspaceId); // readers fold the queued new-contact counts first
  const before = await figures();
  await ctx.db.execute(sql`select report_rebuild(${workspaceId})`);
  const after = await figures();
  if (before !== after) mismatches.push(`report counters differ from report_rebuild: ${before} ≠ ${after}`);
  return mismatches;
}

import { spawn, type ChildProcess } from "node:child_process";
import { eq, sql } from "drizzle-orm";

import { systemActor } from "@/lib/actor";
import type { AutomationStep } from "@/lib/automations/automation-schemas";
import { activateAutomation, createAutomation, setAutomationSteps } from "@/lib/automations/automations";
import { enterAutomations } from "@/lib/automations/enter-automation";
import type { Clock } from "@/lib/clock";
import { withTransaction, type Ctx } from "@/lib/context";
import { workspaceBilling } from "@/lib/db/schema";

import { clearForSending } from "./clear-for-sending";
import { seedTopic, seedWorkspace } from "./factories";

/**
 * Chaos in automations: `people` enter a three-mail automation with waits of an hour and a day; a
 * worker process (the embedded executor with every workflow, as the app runs it) walks their runs on a
 * clock this process moves, and is SIGKILLed `kills` times and restarted. Kill points are chosen by
 * progress (mails in the mailbox), not by time, so a slower machine meets the same phases; the clock
 * moves past a wait once every run is asleep in it. At the end each person must have each mail once,
 * in order, in the mailbox the transport writes (the local transport's mail_messages).
 */
export interface AutomationChaosOptions {
  people: number;
  kills: number;
  /** A seeded random source (seededRandom in dispatch-chaos.ts), so a failing run can be repeated. */
  random: () => number;
  /** Runs each worker works on at once (WORKFLOW_WORKERS). */
  workers?: number;
  log?: (line: string) => void;
}

export interface AutomationChaosResult {
  kills: number;
  /** Where each kill landed: which mail of the series was going out when the worker died. */
  phases: Record<string, number>;
  people: number;
  messages: number;
  /** Extra copies of a mail a person already had. */
  duplicates: number;
  /** People missing at least one of the three mails. */
  lost: number;
  /** People whose mails arrived in another order than the series'. */
  outOfOrder: number;
  /** Entries that walked every step. */
  completed: number;
  ms: number;
}

const SUBJECTS = ["Chaos mail 1", "Chaos mail 2", "Chaos mail 3"] as const;
const HOUR = 60 * 60_000;
const SERIES: AutomationStep[] = [
  { type: "send", subject: `${SUBJECTS[0]}`, text: "First, for {{contact.first_name}}." },
  { type: "wait", minutes: 60 },
  { type: "send", subject: `${SUBJECTS[1]}`, html: "<p>Second, from {{brand.name}}.</p>" },
  { type: "wait", minutes: 24 * 60 },
  { type: "send", subject: `${SUBJECTS[2]}`, text: "Third." },
];
/** How far the clock moves past each wait: the wait, and a minute. */
const PAST_WAITS = [HOUR + 60_000, 24 * HOUR + 60_000];

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Real time plus an offset this process moves; its workers are told each move. */
function movedClock(): Clock & { offsetMs: number } {
  return {
    offsetMs: 0,
    now() {
      return new Date(Date.now() + this.offsetMs);
    },
  };
}

/**
 * A worker on the moved clock (clocked-worker-child.ts), started with node itself so that SIGKILL
 * reaches it. Once it listens it is told the clock as it is then: a move made while it was loading
 * would otherwise be lost, and its runs would never come due.
 */
function startWorker(clock: { offsetMs: number }, workers: number): ChildProcess {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "--conditions=react-server", "inngest/embedded/testing/clocked-worker-child.ts"],
    {
      env: {
        ...process.env,
        MAIL_TRANSPORT: "local",
        CLOCK_OFFSET_MS: String(clock.offsetMs),
        WORKFLOW_WORKERS: String(workers),
      },
      stdio: ["ignore", "ignore", "inherit", "ipc"],
    },
  );
  child.on("message", (message: { listening?: boolean }) => {
    if (message.listening && child.connected) child.send({ clockOffsetMs: clock.offsetMs });
  });
  return child;
}

async function kill(worker: ChildProcess): Promise<void> {
  if (worker.exitCode !== null || worker.signalCode !== null) return;
  const exited = new Promise((resolve) => worker.once("exit", resolve));
  worker.kill("SIGKILL");
  await exited;
}

export async function runAutomationChaos(ctx: Ctx, options: AutomationChaosOptions): Promise<AutomationChaosResult> {
  const log = options.log ?? (() => {});
  const workers = options.workers ?? 8;
  const started = Date.now();
  const clock = movedClock();
  const live: Ctx = { ...ctx, clock };
  const { workspaceId, automationId } = await seedAutomationAudience(live, {
    people: options.people,
    steps: SERIES,
    domain: "chaos.example",
  });
  log(`${options.people.toLocaleString("en")} people entered in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const one = async <T>(query: ReturnType<typeof sql>) => (await ctx.db.execute(query))[0] as T;
  const mailed = async () =>
    (await one<{ n: number }>(sql`select count(*)::int as n from mail_messages where workspace_id = ${workspaceId}`)).n;
  /**
   * Runs of the automation asleep in a wait of `waitMs` (due more than half of it from now): the clock
   * moves only once every run has begun its sleep, else a run beginning it after the move would sleep on.
   */
  const asleep = async (waitMs: number) =>
    (
      await one<{ n: number }>(sql`
        select count(*)::int as n from workflow_runs
        where function_id = 'mailservice-automation-entry' and status = 'pending'
          and wake_at > ${new Date(clock.now().getTime() + waitMs / 2).toISOString()}::timestamptz`)
    ).n;
  const completed = async () =>
    (
      await one<{ n: number }>(
        sql`select count(*)::int as n from automation_entries where automation_id = ${automationId} and status = 'completed'`,
      )
    ).n;

  const total = options.people * SUBJECTS.length;
  const points = Array.from({ length: options.kills }, () => Math.floor(options.random() * total * 0.95)).sort(
    (a, b) => a - b,
  );
  const phases: Record<string, number> = {};
  let worker = startWorker(clock, workers);
  /** Waits passed so far: the series' mail going out is the next one. */
  let waitsPassed = 0;
  let kills = 0;
  /** Mails in the mailbox when the worker last started: the next kill waits until it has sent one. */
  let atStart = 0;
  const done = async () => (await mailed()) >= total && (await completed()) >= options.people;
  for (;;) {
    const point = points[kills];
    const n = await mailed();
    if (point !== undefined && n >= point && n > atStart) {
      await kill(worker);
      kills++;
      const phase = `mail ${waitsPassed + 1}`;
      phases[phase] = (phases[phase] ?? 0) + 1;
      log(`kill ${kills}: during ${phase}, ${n} mails so far`);
      worker = startWorker(clock, workers);
      atStart = n;
      continue;
    }
    if (point === undefined && (await done())) break;
    // Everyone has had this mail and sleeps in the wait after it: the clock moves past the wait.
    if (
      waitsPassed < PAST_WAITS.length &&
      n >= options.people * (waitsPassed + 1) &&
      (await asleep(PAST_WAITS[waitsPassed]!)) === options.people
    ) {
      clock.offsetMs += PAST_WAITS[waitsPassed]!;
      waitsPassed++;
      if (worker.connected) worker.send({ clockOffsetMs: clock.offsetMs });
      log(`clock moved past wait ${waitsPassed}`);
      continue;
    }
    if (worker.exitCode !== null) throw new Error(`the worker exited with ${worker.exitCode} before it was killed`);
    await pause(20);
  }
  await kill(worker);

  // Each person's mails in the order the mailbox received them (the clock only moves forward).
  const counts = await one<{
    people: number;
    messages: number;
    duplicates: number;
    lost: number;
    out_of_order: number;
  }>(sql`
    with per as (
      select c.email, count(m.id) as n, count(distinct m.subject) as kinds,
             coalesce(array_agg(m.subject order by m.created_at, m.id) filter (where m.id is not null), '{}') as subjects
      from contacts c left join mail_messages m on m.workspace_id = c.workspace_id and m.to_address = c.email
      where c.workspace_id = ${workspaceId}
      group by c.email)
    select count(*)::int as people, coalesce(sum(n), 0)::int as messages,
           coalesce(sum(n - kinds), 0)::int as duplicates,
           count(*) filter (where kinds < ${SUBJECTS.length})::int as lost,
           count(*) filter (where kinds = ${SUBJECTS.length} and n = kinds and subjects <> ${sql.raw(`array['${SUBJECTS.join("','")}']`)}::text[])::int as out_of_order
    from per`);
  return {
    kills,
    phases,
    people: counts.people,
    messages: counts.messages,
    duplicates: counts.duplicates,
    lost: counts.lost,
    outOfOrder: counts.out_of_order,
    completed: await completed(),
    ms: Date.now() - started,
  };
}

/**
 * A workspace cleared for sending, `people` subscribers of a topic written in bulk (person<i>@`domain`),
 * an active automation of `steps` on it, and every person entered through enterAutomations (their runs
 * enqueued with their entries, 500 people per transaction).
 */
export async function seedAutomationAudience(
  ctx: Ctx,
  options: { people: number; steps: AutomationStep[]; domain: string },
): Promise<{ workspaceId: string; automationId: string }> {
  const { people, steps, domain } = options;
  const { workspaceId, brandId } = await seedWorkspace(ctx);
  await clearForSending(ctx, workspaceId);
  await ctx.db
    .update(workspaceBilling)
    .set({ sendAllowance: people * 10 })
    .where(eq(workspaceBilling.workspaceId, workspaceId));
  const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
  const prefix = workspaceId.slice(-8);
  await ctx.db.execute(sql`insert into contacts (id, workspace_id, email, first_name)
    select 'ct_' || ${prefix} || lpad(to_hex(i), 18, '0'), ${workspaceId}, 'person' || i || '@' || ${domain}, 'P' || i from generate_series(1, ${people}::int) i`);
  await ctx.db.execute(sql`insert into subscriptions (id, workspace_id, contact_id, topic_id, state, source)
    select 'sub_' || ${prefix} || lpad(to_hex(i), 18, '0'), ${workspaceId}, 'ct_' || ${prefix} || lpad(to_hex(i), 18, '0'), ${topicId}, 'subscribed', 'api' from generate_series(1, ${people}::int) i`);
  const actor = systemActor("chaos", workspaceId);
  const { automationId } = await createAutomation(ctx, actor, { name: "Series", topic_id: topicId });
  await setAutomationSteps(ctx, actor, automationId, { steps });
  await activateAutomation(ctx, actor, automationId);
  const contactIds = (
    await ctx.db.execute<{ id: string }>(sql`select id from contacts where workspace_id = ${workspaceId} order by id`)
  ).map((row) => row.id);
  for (let from = 0; from < contactIds.length; from += 500) {
    await withTransaction(ctx, async (tx) => {
      for (const contactId of contactIds.slice(from, from + 500))
        await enterAutomations(tx, workspaceId, { topicId, contactId, trigger: "topic_confirmed" });
    });
  }
  return { workspaceId, automationId };
}

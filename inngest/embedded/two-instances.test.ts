import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { inngest } from "@/inngest/client";
import { systemActor } from "@/lib/actor";
import { BUCKET_LIMITS } from "@/lib/api/rate-limit";
import { sendCampaignNow } from "@/lib/campaigns/campaign-actions";
import { systemClock } from "@/lib/clock";
import { resubscribe } from "@/lib/consent/resubscribe";
import { unsubscribe } from "@/lib/consent/unsubscribe";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import type { Ctx } from "@/lib/context";
import { getDb } from "@/lib/db/client";
import { overrideEnvForTests, reloadEnv } from "@/lib/env";
import { seedAutomationAudience } from "@/lib/testing/automation-chaos";
import { recount, seedBulkCampaign } from "@/lib/testing/dispatch-chaos";
import { seedKey, seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { startSmtpSink } from "@/lib/testing/smtp-sink";
import { startWebhookReceiver } from "@/lib/testing/webhook-receiver";
import { createEndpoint } from "@/lib/webhooks/endpoints";

import { instanceCrons } from "./testing/instance-crons";
import { exited, killInstance, spawnInstance, waitUntil, type Instance } from "./testing/instances";

// Two app instances on this file's database, both running the embedded executor at once (as two
// `npm start` processes would). Every promise below is kept by PostgreSQL, never by one process's
// memory: each part fails when its mechanism is moved into the process (see the report of the
// change that added this file). No fixed sleeps: every wait polls the database or the children.
const ctx: Ctx = { db: getDb(), clock: systemClock };
const instances: Instance[] = [];
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
/** performance.now() when the receiver answered each webhook, by event id. */
const answeredAt = new Map<string, number>();

beforeAll(async () => {
  overrideEnvForTests({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "1" });
  // A slow receiver: deliveries of one contact that ran at once would overlap.
  receiver = await startWebhookReceiver((webhook, response) =>
    setTimeout(() => {
      answeredAt.set(webhook.body.id, performance.now());
      response.writeHead(204).end();
    }, 50),
  );
  sink = await startSmtpSink();
  const env = {
    // Through SMTP, which has no idempotency key: a recipient sent to twice gets two messages.
    MAIL_TRANSPORT: "smtp",
    SMTP_URL: sink.url,
    WEBHOOK_ALLOW_PRIVATE_TARGETS: "1",
    // Batches sleep between them, so either instance may take the campaign's run for the next one.
    DISPATCH_BATCH_SIZE: "100",
    DISPATCH_BATCH_PAUSE_MS: "20",
    WORKFLOW_WORKERS: "4",
    INSTANCE_POLL_MS: "50",
    // Step lines tell which instance did what.
    LOG_LEVEL: "info",
  };
  for (const name of ["a", "b"]) instances.push(spawnInstance(name, "inngest/embedded/testing/instance-child.ts", env));
  await waitUntil(
    () => instances.every((i) => i.lines.some((line) => line.msg === "instance ready")),
    instances,
    "both instances to start",
  );
}, 180_000);

afterAll(async () => {
  await Promise.all(instances.map(killInstance));
  await receiver?.close();
  await sink?.close();
  reloadEnv();
});

/** Log lines of a workflow step that ended well, by instance name. */
function stepsBy(fn: string, step: (name: string) => boolean): Map<string, string[]> {
  const byInstance = new Map<string, string[]>();
  for (const instance of instances) {
    const runs = instance.lines
      .filter((l) => l.msg === "workflow step" && l.function_id === fn && l.outcome === "ok" && step(String(l.step)))
      .map((l) => String(l.run_id));
    byInstance.set(instance.name, runs);
  }
  return byInstance;
}

async function one<T>(query: ReturnType<typeof sql>): Promise<T> {
  return (await ctx.db.execute(query))[0] as T;
}

describe("two instances on one database", () => {
  it(
    "dispatch: a campaign of 3,000 sent by two instances at once gives every recipient exactly one message (counted at an SMTP peer), and the counters equal a recount",
    { timeout: 300_000 },
    async () => {
      const { workspaceId, campaignId } = await seedBulkCampaign(ctx, 3000);
      await sendCampaignNow(ctx, systemActor("test", workspaceId), campaignId);
      const status = () => one<{ status: string }>(sql`select status from campaigns where id = ${campaignId}`);
      await waitUntil(async () => (await status()).status === "sent", instances, "the campaign to be sent");

      const recipients = await ctx.db.execute<{ email: string }>(
        sql`select email from sends where campaign_id = ${campaignId} and state = 'accepted'`,
      );
      const got = recipients.map(({ email }) => sink.perRecipient.get(email) ?? 0);
      const sent = {
        recipients: recipients.length,
        messages: got.reduce((a, n) => a + n, 0),
        duplicates: got.reduce((a, n) => a + Math.max(0, n - 1), 0),
        lost: got.filter((n) => n === 0).length,
      };
      console.log(`dispatch: ${JSON.stringify(sent)}`);
      expect(sent).toEqual({ recipients: 3000, messages: 3000, duplicates: 0, lost: 0 });
      expect(await recount(ctx, workspaceId, campaignId)).toEqual([]);
      // Both instances sent batches of the one run: it moved between them at the pauses.
      const { id: runId } = await one<{ id: string }>(
        sql`select id from workflow_runs where function_id = 'mailservice-dispatch-campaign' and event->'data'->>'campaignId' = ${campaignId}`,
      );
      const batches = stepsBy("mailservice-dispatch-campaign", (step) => step.startsWith("batch-"));
      const counts = [...batches.values()].map((runs) => runs.filter((id) => id === runId).length);
      console.log(`dispatch: batches by instance a=${counts[0]} b=${counts[1]}`);
      expect(counts.every((n) => n > 0)).toBe(true);
    },
  );

  it(
    "automations: 200 people walking a three-mail automation, their runs taken by two instances at once, get each mail exactly once (counted at an SMTP peer)",
    { timeout: 300_000 },
    async () => {
      const people = 200;
      // Sends only: the instances run on the real clock, and a wait of the shortest length is a minute.
      const { workspaceId, automationId } = await seedAutomationAudience(ctx, {
        people,
        steps: [1, 2, 3].map((n) => ({ type: "send" as const, subject: `Series ${n}`, text: `Mail ${n}.` })),
        domain: "two-instances.example",
      });
      const completed = async () =>
        (
          await one<{ n: number }>(
            sql`select count(*)::int as n from automation_entries where automation_id = ${automationId} and status = 'completed'`,
          )
        ).n;
      await waitUntil(async () => (await completed()) === people, instances, "every entry to complete");

      const emails = await ctx.db.execute<{ email: string }>(
        sql`select email from contacts where workspace_id = ${workspaceId}`,
      );
      const got = emails.map(({ email }) => sink.perRecipient.get(email) ?? 0);
      const sent = {
        people: emails.length,
        messages: got.reduce((a, n) => a + n, 0),
        duplicates: got.reduce((a, n) => a + Math.max(0, n - 3), 0),
        short: got.filter((n) => n < 3).length,
      };
      console.log(`automations: ${JSON.stringify(sent)}`);
      expect(sent).toEqual({ people, messages: people * 3, duplicates: 0, short: 0 });
      // Both instances sent some of the mails: the runs were shared, not left to one.
      const sends = stepsBy("mailservice-automation-entry", (step) => step.startsWith("send-"));
      console.log(`automations: send steps by a=${sends.get("a")!.length} b=${sends.get("b")!.length}`);
      expect([...sends.values()].every((runs) => runs.length > 0)).toBe(true);
    },
  );

  it(
    "crons: each due time of a cron starts exactly one run, however many instances see it due",
    { timeout: 300_000 },
    async () => {
      const slugs = instanceCrons.map((fn) => fn.id(inngest.id));
      const rows = slugs.map((slug) => `${slug}#* * * * *`);
      const inRows = sql.join(
        rows.map((row) => sql`${row}`),
        sql`, `,
      );
      // Both instances scheduled them on start; the test makes each firing due by moving next_at back.
      const firings = Array.from({ length: 5 }, (_, k) => new Date(Date.UTC(2025, 0, 1, 0, k)));
      for (const at of firings) {
        await ctx.db.execute(
          sql`update workflow_crons set next_at = ${at.toISOString()} where function_id in (${inRows})`,
        );
        await waitUntil(
          async () =>
            (
              await one<{ due: number }>(
                sql`select count(*)::int as due from workflow_crons where function_id in (${inRows}) and next_at <= ${at.toISOString()}`,
              )
            ).due === 0,
          instances,
          `the firing at ${at.toISOString()}`,
        );
      }
      const runsNow = () =>
        ctx.db.execute<{ function_id: string; event_id: string; status: string; result: string | null }>(
          sql`select function_id, event->>'id' as event_id, status, result #>> '{}' as result from workflow_runs where function_id like 'mailservice-two-instances-cron-%'`,
        );
      await waitUntil(
        async () => (await runsNow()).every((run) => run.status === "completed"),
        instances,
        "the cron runs to finish",
      );

      const runs = [...(await runsNow())];
      const perFiring = slugs.flatMap((slug) =>
        firings.map(
          (at) =>
            runs.filter(
              (run) =>
                run.function_id === slug && run.event_id.startsWith(`cron:${slug}#* * * * *:${at.toISOString()}`),
            ).length,
        ),
      );
      expect(perFiring).toEqual(Array(slugs.length * firings.length).fill(1));
      // A real minute may also have passed: its firing, too, started one run per cron.
      const byEvent = new Map<string, number>();
      for (const run of runs) byEvent.set(run.event_id, (byEvent.get(run.event_id) ?? 0) + 1);
      expect([...byEvent.values()].filter((n) => n > 1)).toEqual([]);
      const ranBy = (name: string) => runs.filter((run) => run.result === name).length;
      console.log(`crons: ${runs.length} runs for ${byEvent.size} firings; run by a=${ranBy("a")} b=${ranBy("b")}`);
    },
  );

  it(
    "webhook ordering: one contact's events reach the endpoint in order and never overlap, whichever instance delivers each",
    { timeout: 300_000 },
    async () => {
      const { workspaceId, brandId } = await seedWorkspace(ctx);
      const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
      const actor = systemActor("test", workspaceId);
      await createEndpoint(ctx, actor, { url: receiver.url, eventTypes: [] });
      // Six contacts, four events each, recorded one round at a time while both instances deliver.
      const contacts: string[] = [];
      for (let i = 0; i < 6; i++)
        contacts.push(
          (await upsertContact(ctx, actor, { email: `two-${i}@example.com`, topicIds: [topicId] })).contact.id,
        );
      for (const contactId of contacts) await unsubscribe(ctx, { contactId, scope: "topic", topicId });
      for (const contactId of contacts) await resubscribe(ctx, { contactId, topicId });
      for (const contactId of contacts) await unsubscribe(ctx, { contactId, scope: "all" });
      const mine = () => receiver.received.filter((w) => contacts.includes(String(w.body.data.contact_id)));
      await waitUntil(() => mine().length >= 24, instances, "24 webhooks");
      await waitUntil(
        async () =>
          (
            await one<{ n: number }>(
              sql`select count(*)::int as n from webhook_deliveries where workspace_id = ${workspaceId} and status = 'succeeded'`,
            )
          ).n === 24,
        instances,
        "the deliveries to be recorded",
      );

      expect(mine()).toHaveLength(24);
      for (const contactId of contacts) {
        const hooks = mine().filter((w) => w.body.data.contact_id === contactId);
        expect(hooks.map((w) => [w.body.type, w.body.data.scope ?? null])).toEqual([
          ["contact.subscribed", null],
          ["contact.unsubscribed", "topic"],
          ["contact.subscribed", null],
          ["contact.unsubscribed", "all"],
        ]);
        // Each is sent only after the previous one was answered: one delivery run per endpoint across instances.
        hooks
          .slice(1)
          .forEach((webhook, index) =>
            expect(webhook.receivedAt).toBeGreaterThanOrEqual(answeredAt.get(hooks[index]!.body.id)!),
          );
      }
      const steps = stepsBy("mailservice-webhook-endpoint-delivery", (step) => step.startsWith("deliver-"));
      console.log(`webhooks: delivery steps by a=${steps.get("a")!.length} b=${steps.get("b")!.length}`);
    },
  );

  it(
    "rate limits: two instances calling /v1 with one key share one budget, not one each",
    { timeout: 300_000 },
    async () => {
      const { workspaceId } = await seedWorkspace(ctx);
      const budget = BUCKET_LIMITS["contacts.list"];
      // Each instance alone stays under the limit: a count kept per process would accept every call.
      const calls = Math.ceil(budget * 0.8);
      for (let attempt = 1; ; attempt++) {
        const { key } = await seedKey(ctx, workspaceId);
        const callers = ["a", "b"].map((name) =>
          spawnInstance(`rate-${name}`, "lib/testing/rate-limit-child.ts", {
            RATE_LIMIT_KEY: key,
            RATE_LIMIT_CALLS: String(calls),
          }),
        );
        let done: { statuses: Record<number, number>; minutes: number[] }[];
        try {
          await waitUntil(
            () => callers.every((c) => c.lines.some((l) => l.msg === "ready")),
            callers,
            "both callers to load",
          );
          // Both start at once.
          for (const caller of callers) caller.child.stdin!.write("go\n");
          expect(await Promise.all(callers.map(exited))).toEqual([0, 0]);
          done = callers.map((c) => c.lines.find((l) => l.msg === "done") as unknown as (typeof done)[number]);
        } finally {
          await Promise.all(callers.map(killInstance));
        }
        // Calls that straddled a minute meet the sliding window's second window: try again with a fresh key.
        const minutes = new Set(done.flatMap((d) => d.minutes));
        if (minutes.size > 1 && attempt < 5) continue;
        expect(minutes.size).toBe(1);
        const tallies = done.map((d) => d.statuses);
        const accepted = tallies.map((t) => t[200] ?? 0);
        const limited = tallies.map((t) => t[429] ?? 0);
        console.log(`rate limits: accepted a=${accepted[0]} b=${accepted[1]}, 429 a=${limited[0]} b=${limited[1]}`);
        expect(accepted[0]! + accepted[1]!).toBe(budget);
        expect(limited[0]! + limited[1]!).toBe(2 * calls - budget);
        return;
      }
    },
  );
});

import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { hashKey } from "@/lib/api-keys/key-format";
import { createCampaign } from "@/lib/campaigns/save-campaign";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { defaultCtx } from "@/lib/context";
import { getDb } from "@/lib/db/client";
import { startEmbeddedPostgres } from "@/lib/db/embedded-postgres";
import {
  apiKeys,
  attributeDefinitions,
  brands,
  campaigns,
  erasedContacts,
  memberships,
  sendingDomains,
  topics,
  workflowRuns,
  workspaces,
} from "@/lib/db/schema";
import { overrideEnvForTests, reloadEnv } from "@/lib/env";
import { newId } from "@/lib/ids";
import { resolveDataDir } from "@/lib/runtime/data-dir";
import { createSegment } from "@/lib/segments/save-segment";
import { seedAcceptedSend } from "@/lib/testing/campaign-fixture";
import { clearForSending } from "@/lib/testing/clear-for-sending";
import { startDnsServer } from "@/lib/testing/dns-server";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { sendingCampaign } from "@/lib/testing/guardrail-fixture";

import { runAdmin } from "./admin/run-admin";

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI exactly as operators do: `npm run -s admin -- <args>`. Each
 * run pays tsx's start-up (seconds on a busy machine), so only the tests of
 * the process itself (exit codes, the embedded database) use it.
 */
function adminProcess(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", "-s", "admin", "--", ...args], { env: { ...process.env, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** The same command in this process, on the test's database: what it prints and its exit code. */
function admin(args: string[], env: Record<string, string> = {}): Promise<Run> {
  if (Object.keys(env).length > 0) return adminProcess(args, env);
  return runAdmin(args, (fn) => fn(defaultCtx()));
}

// A spawned command's time is the machine's: these tests get several minutes, not a guess at this one's speed.
const PROCESS_TEST_TIMEOUT_MS = 300_000;

/** With --json a command prints exactly one JSON object on stdout. */
async function adminJson<K extends string>(
  args: string[],
  env: Record<string, string> = {},
): Promise<Record<K, string>> {
  const run = await admin([...args, "--json"], env);
  expect(run.code, run.stderr).toBe(0);
  const lines = run.stdout.trim().split("\n");
  expect(lines).toHaveLength(1);
  const parsed = JSON.parse(lines[0]!);
  expect(typeof parsed).toBe("object");
  return parsed;
}

describe("admin CLI", () => {
  it("creates every object and prints the documented JSON", async () => {
    const db = getDb();
    const { workspace_id } = await adminJson<"workspace_id">([
      "workspace:create",
      "--name",
      "Acme",
      "--owner",
      "ops@acme.test",
    ]);
    expect(workspace_id).toMatch(/^ws_[0-9a-z]{26}$/);
    expect(await db.select().from(memberships).where(eq(memberships.workspaceId, workspace_id))).toMatchObject([
      { role: "owner" },
    ]);

    const approved = await adminJson<"workspace_id" | "approved_at">([
      "workspace:approve",
      "--workspace",
      workspace_id,
    ]);
    expect(approved).toEqual({
      workspace_id,
      approved_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect((await db.select().from(workspaces).where(eq(workspaces.id, workspace_id)))[0]!.approvedAt).not.toBeNull();

    const { brand_id } = await adminJson<"brand_id">([
      "brand:create",
      "--workspace",
      workspace_id,
      "--name",
      "Acme",
      "--legal-name",
      "Acme Ltd",
      "--postal-address",
      "1 Road, Town",
      "--website-url",
      "https://acme.test",
      "--sender-email",
      "News@Acme.test",
    ]);
    expect(brand_id).toMatch(/^br_/);
    expect((await db.select().from(brands).where(eq(brands.id, brand_id)))[0]).toMatchObject({
      senderEmail: "news@acme.test",
      reviewStatus: "pending",
    });
    expect(await adminJson<"brand_id" | "review_status">(["brand:approve", "--brand", brand_id])).toEqual({
      brand_id,
      review_status: "approved",
    });
    expect(
      await adminJson<string>(["brand:update", "--brand", brand_id, "--logo-url", "https://acme.test/logo.png"]),
    ).toEqual({ brand_id, review_status: "approved", sending_held: false });
    expect(await adminJson<string>(["brand:update", "--brand", brand_id, "--legal-name", "Acme Holdings Ltd"])).toEqual(
      { brand_id, review_status: "pending", sending_held: true },
    );
    expect(await adminJson<"brand_id" | "review_status">(["brand:approve", "--brand", brand_id])).toEqual({
      brand_id,
      review_status: "approved",
    });

    const { topic_id } = await adminJson<"topic_id">([
      "topic:create",
      "--workspace",
      workspace_id,
      "--brand",
      brand_id,
      "--name",
      "News",
      "--description",
      "Weekly news",
    ]);
    const { topic_id: direct } = await adminJson<"topic_id">([
      "topic:create",
      "--workspace",
      workspace_id,
      "--brand",
      brand_id,
      "--name",
      "Direct",
      "--no-confirmation",
    ]);
    const topicRows = await db.select().from(topics).where(eq(topics.workspaceId, workspace_id));
    expect(topicRows.find((t) => t.id === topic_id)).toMatchObject({
      requiresConfirmation: true,
      description: "Weekly news",
    });
    expect(topicRows.find((t) => t.id === direct)).toMatchObject({ requiresConfirmation: false });
    const archived = await adminJson<"topic_id" | "archived_at">(["topic:archive", "--topic", direct]);
    expect(archived).toEqual({ topic_id: direct, archived_at: expect.any(String) });

    const { list_id } = await adminJson<"list_id">([
      "list:create",
      "--workspace",
      workspace_id,
      "--brand",
      brand_id,
      "--name",
      "VIP",
    ]);
    expect(list_id).toMatch(/^ls_/);

    expect(
      await adminJson<"key" | "type">([
        "attribute:define",
        "--workspace",
        workspace_id,
        "--key",
        "plan",
        "--type",
        "string",
      ]),
    ).toEqual({ key: "plan", type: "string" });
    expect(
      await db.select().from(attributeDefinitions).where(eq(attributeDefinitions.workspaceId, workspace_id)),
    ).toMatchObject([{ key: "plan", type: "string" }]);

    const secret = await adminJson<"key_id" | "key">([
      "key:create",
      "--workspace",
      workspace_id,
      "--type",
      "secret",
      "--env",
      "live",
      "--brand",
      brand_id,
    ]);
    expect(secret).toEqual({ key_id: expect.stringMatching(/^key_/), key: expect.stringMatching(/^sk_live_/) });
    const publishable = await adminJson<"key_id" | "key">([
      "key:create",
      "--workspace",
      workspace_id,
      "--type",
      "publishable",
      "--env",
      "test",
      "--origin",
      "https://acme.test",
      "--origin",
      "http://localhost:8080/",
    ]);
    expect(publishable.key).toMatch(/^pk_test_/);
    const [stored] = await db.select().from(apiKeys).where(eq(apiKeys.id, publishable.key_id));
    expect(stored).toMatchObject({
      keyHash: hashKey(publishable.key),
      allowedOrigins: ["https://acme.test", "http://localhost:8080"],
      brandId: null,
    });
    expect(JSON.stringify(stored)).not.toContain(publishable.key);

    expect(await adminJson<"key_id" | "revoked_at">(["key:revoke", "--key", secret.key_id])).toEqual({
      key_id: secret.key_id,
      revoked_at: expect.any(String),
    });

    const { user_id } = await adminJson<"user_id">([
      "user:create",
      "--email",
      "member@acme.test",
      "--password",
      "long enough",
      "--workspace",
      workspace_id,
    ]);
    expect(await db.select().from(memberships).where(eq(memberships.userId, user_id))).toMatchObject([
      { workspaceId: workspace_id, role: "member" },
    ]);
  });

  it("errors go to stderr with a non-zero exit and nothing on stdout", async () => {
    const unknown = await admin(["nope:create"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command "nope:create"');
    expect(unknown.stdout).toBe("");

    const missing = await admin(["workspace:create", "--name", "X", "--json"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("missing --owner");
    expect(missing.stdout).toBe("");

    const badOption = await admin(["workspace:create", "--name", "X", "--owner", "a@b.co", "--colour", "red"]);
    expect(badOption.code).toBe(2);
    expect(badOption.stderr).toContain("--colour");

    const notFound = await admin([
      "brand:create",
      "--workspace",
      "ws_00000000000000000000000000",
      "--name",
      "B",
      "--legal-name",
      "B",
      "--postal-address",
      "A",
      "--website-url",
      "https://b.test",
      "--sender-email",
      "b@b.test",
      "--json",
    ]);
    expect(notFound.code).toBe(1);
    expect(notFound.stderr).toContain("workspace_not_found");
    expect(notFound.stdout).toBe("");

    const invalid = await admin([
      "attribute:define",
      "--workspace",
      "ws_x",
      "--key",
      "plan",
      "--type",
      "colour",
      "--json",
    ]);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain("validation_failed (type)");
  });

  it('mailbox:list prints the local mailbox as {"messages":[{id,to,from,subject,headers,text,html,links,sent_at}]}', async () => {
    const { localTransport } = await import("@/lib/mail/transports/local-transport");
    const { defaultCtx } = await import("@/lib/context");
    await localTransport().send(defaultCtx(), {
      workspaceId: null,
      idempotencyKey: "cli-mail-1",
      from: { name: "Brand", address: "news@brand.example" },
      to: "cli@example.com",
      subject: "Please confirm",
      text: "https://app.example/confirm/1",
      html: '<a href="https://app.example/confirm/1">Confirm</a>',
    });
    const run = await admin(["mailbox:list", "--to", "CLI@example.com", "--json"]);
    expect(run.code, run.stderr).toBe(0);
    const { messages } = JSON.parse(run.stdout);
    expect(messages).toEqual([
      {
        id: expect.stringMatching(/^msg_/),
        to: "cli@example.com",
        from: "news@brand.example",
        subject: "Please confirm",
        headers: expect.objectContaining({
          Subject: "Please confirm",
          "Message-ID": expect.stringMatching(/^<cli-mail-1\.[0-9a-f]{32}@brand\.example>$/),
        }),
        text: expect.stringContaining("https://app.example/confirm/1"),
        html: expect.stringContaining("Confirm"),
        links: ["https://app.example/confirm/1"],
        sent_at: expect.any(String),
      },
    ]);
  });

  it("webhook:create, webhook:rotate and webhook:deliveries print the documented JSON; a refused target exits 1", async () => {
    const { workspace_id } = await adminJson<"workspace_id">([
      "workspace:create",
      "--name",
      "Hooks",
      "--owner",
      "hooks@acme.test",
    ]);
    const refused = await admin([
      "webhook:create",
      "--workspace",
      workspace_id,
      "--url",
      "https://127.0.0.1/in",
      "--json",
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("webhook_target_refused");
    const created = await adminJson<"endpoint_id" | "secret">(
      [
        "webhook:create",
        "--workspace",
        workspace_id,
        "--url",
        "http://127.0.0.1:9/in",
        "--event",
        "contact.subscribed",
        "--event",
        "email.bounced",
      ],
      { WEBHOOK_ALLOW_PRIVATE_TARGETS: "1" },
    );
    expect(created).toEqual({
      endpoint_id: expect.stringMatching(/^wh_/),
      secret: expect.stringMatching(/^whsec_[0-9A-Za-z]{40}$/),
    });
    const rotated = await adminJson<"secret">(["webhook:rotate", "--endpoint", created.endpoint_id]);
    expect(rotated).toEqual({ secret: expect.stringMatching(/^whsec_/), retried: 0 });
    expect(rotated.secret).not.toBe(created.secret);
    const { recordEvent } = await import("@/lib/events/record-event");
    const { defaultCtx } = await import("@/lib/context");
    const now = new Date();
    await recordEvent(defaultCtx(), systemActor("test", workspace_id), "email.bounced", { send_id: "snd_x" }, now);
    await recordEvent(defaultCtx(), systemActor("test", workspace_id), "email.delivered", { send_id: "snd_x" }, now);
    const listed = await adminJson<string>(["webhook:deliveries", "--endpoint", created.endpoint_id]);
    expect(listed).toEqual({
      endpoint_id: created.endpoint_id,
      url: "http://127.0.0.1:9/in",
      enabled: true,
      disabled_at: null,
      disabled_reason: null,
      deliveries: [
        {
          delivery_id: expect.stringMatching(/^whd_/),
          event_id: expect.stringMatching(/^evt_/),
          event_type: "email.bounced",
          status: "pending",
          attempt_count: 0,
          next_attempt_at: expect.any(String),
          attempts: [],
        },
      ],
    });
  });

  it("mailbox:event reports a provider outcome for a stored message: a complaint suppresses the address", async () => {
    const { localTransport } = await import("@/lib/mail/transports/local-transport");
    const { defaultCtx } = await import("@/lib/context");
    const { workspace_id } = await adminJson<"workspace_id">([
      "workspace:create",
      "--name",
      "Outcomes",
      "--owner",
      "o@outcomes.test",
    ]);
    const { providerMessageId } = await localTransport().send(defaultCtx(), {
      workspaceId: workspace_id,
      idempotencyKey: "cli-outcome-1",
      from: { name: "B", address: "b@outcomes.test" },
      to: "victim@example.com",
      subject: "Hello",
      text: "hi",
      html: "<p>hi</p>",
    });
    expect(await adminJson(["mailbox:event", "--message", providerMessageId, "--type", "complained"])).toEqual({
      message_id: providerMessageId,
      type: "complained",
      suppressed: true,
    });
    const { suppressions } = await import("@/lib/db/schema");
    expect(
      await getDb()
        .select({ reason: suppressions.reason })
        .from(suppressions)
        .where(eq(suppressions.workspaceId, workspace_id)),
    ).toEqual([{ reason: "complaint" }]);
    const bad = await admin(["mailbox:event", "--message", providerMessageId, "--type", "exploded"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("validation_failed (type)");
    expect((await admin(["mailbox:event", "--message", "msg_nope", "--type", "delivered"])).stderr).toContain(
      "message_not_found",
    );
  });

  it("import:run dry-runs and applies a CSV file and contacts:export writes the contacts with their consent", async () => {
    const { workspace_id } = await adminJson<"workspace_id">([
      "workspace:create",
      "--name",
      "Importer",
      "--owner",
      "imports@acme.test",
    ]);
    const { brand_id } = await adminJson<"brand_id">([
      "brand:create",
      "--workspace",
      workspace_id,
      "--name",
      "Acme",
      "--legal-name",
      "Acme Ltd",
      "--postal-address",
      "1 Road, Town",
      "--website-url",
      "https://acme.test",
      "--sender-email",
      "news@acme.test",
    ]);
    const { topic_id } = await adminJson<"topic_id">([
      "topic:create",
      "--workspace",
      workspace_id,
      "--brand",
      brand_id,
      "--name",
      "News",
      "--no-confirmation",
    ]);
    const dir = mkdtempSync(path.join(tmpdir(), "import-cli-"));
    const file = path.join(dir, "people.csv");
    writeFileSync(file, "E-mail,Given,Notes\nann@example.com,Ann,x\nbad,Bo,y\n");
    const base = [
      "import:run",
      "--workspace",
      workspace_id,
      "--file",
      file,
      "--map",
      "Given=first_name",
      "--topic",
      topic_id,
    ];

    const dry = (await adminJson<string>([...base, "--dry-run"])) as unknown as Record<string, unknown>;
    expect(dry).toMatchObject({
      status: "checked",
      mapping: ["email", "first_name", ""],
      checked: { rows: 2, created: 1, refused: { invalid_email: 1 } },
      applied: null,
    });
    const run = (await adminJson<string>(base)) as unknown as Record<string, unknown>;
    expect(run).toMatchObject({
      status: "completed",
      applied: { rows: 2, created: 1, subscribed: 1, refused: { invalid_email: 1 } },
    });

    const out = path.join(dir, "export.csv");
    expect(await adminJson<string>(["contacts:export", "--workspace", workspace_id, "--out", out])).toEqual({
      file: out,
      rows: 1,
    });
    const csv = readFileSync(out, "utf8");
    expect(csv).toContain("ann@example.com,Ann,,subscribed,");
    expect(csv).toContain(",subscribed,import,");
    rmSync(dir, { recursive: true, force: true });
  });

  it("contact:export-data prints everything held about one contact as one JSON document; another workspace's contact is not found", async () => {
    const { workspaceId, contactId, send } = await seedAcceptedSend(defaultCtx(), "asks@example.com");
    const run = await admin(["contact:export-data", "--workspace", workspaceId, "--contact", contactId]);
    expect(run.code, run.stderr).toBe(0);
    const data = JSON.parse(run.stdout);
    expect(data).toMatchObject({
      workspace_id: workspaceId,
      contact: { id: contactId, email: "asks@example.com", status: "subscribed" },
      subscriptions: [{ state: "subscribed", source: "api", confirmation_mails: [], signup_forms: [] }],
      opt_outs_on_behalf: [],
      lists: [],
      suppressions: [],
      lifted_suppressions: [],
      sends: [{ id: send.id, state: "accepted", campaign_name: "Launch" }],
      events: [{ type: "contact.subscribed" }],
    });
    expect(await adminJson(["contact:export-data", "--workspace", workspaceId, "--contact", contactId])).toEqual({
      ...data,
      generated_at: expect.any(String),
    });
    const { workspace_id: other } = await adminJson<"workspace_id">([
      "workspace:create",
      "--name",
      "Elsewhere",
      "--owner",
      "elsewhere@acme.test",
    ]);
    const refused = await admin(["contact:export-data", "--workspace", other, "--contact", contactId]);
    expect(refused).toMatchObject({ code: 1, stdout: "" });
    expect(refused.stderr).toContain("contact_not_found");
  });

  it("contact:erase erases one contact at the person's request; only a fingerprint of the address stays, and erasing again is contact_not_found", async () => {
    const { workspaceId, contactId } = await seedAcceptedSend(defaultCtx(), "forget-me@example.com");
    expect(await adminJson(["contact:erase", "--workspace", workspaceId, "--contact", contactId])).toEqual({
      contact_id: contactId,
      erased: true,
      cancelled_sends: 0,
    });
    const again = await admin(["contact:erase", "--workspace", workspaceId, "--contact", contactId]);
    expect(again).toMatchObject({ code: 1, stdout: "" });
    expect(again.stderr).toContain("contact_not_found");
    const kept = await getDb().select().from(erasedContacts).where(eq(erasedContacts.contactId, contactId));
    expect(kept).toEqual([expect.objectContaining({ workspaceId, erasedBy: "system:admin-cli" })]);
  });

  it("domain:warm-up shows a domain's warm-up (stage, today's cap and use) and --on/--off sets it", async () => {
    const { workspaceId } = await seedAcceptedSend(defaultCtx(), "warm@example.com");
    const [domain] = await getDb().select().from(sendingDomains).where(eq(sendingDomains.workspaceId, workspaceId));
    const off = { domain_id: domain!.id, warm_up: false, stage: 1, stages: 9, cap_today: null, used_today: 0 };
    expect(await adminJson(["domain:warm-up", "--domain", domain!.id])).toEqual({ ...off, next_cap: 100, done: false });
    expect(await adminJson(["domain:warm-up", "--domain", domain!.id, "--on"])).toEqual({
      ...off,
      warm_up: true,
      cap_today: 50,
      next_cap: 100,
      done: false,
    });
    expect(await adminJson(["domain:warm-up", "--domain", domain!.id, "--off"])).toMatchObject({ warm_up: false });
    const both = await admin(["domain:warm-up", "--domain", domain!.id, "--on", "--off"]);
    expect(both).toMatchObject({ code: 1, stdout: "" });
  });

  it("billing:* drives the manual provider: invoice in the workspace's currency, payment failed, show with the next stages, settle, cancel, clock", async () => {
    const { workspace_id } = await adminJson<"workspace_id">([
      "workspace:create",
      "--name",
      "Billed",
      "--owner",
      `billed-${Date.now()}@example.com`,
      "--currency",
      "eur",
    ]);
    const invoice = await adminJson<"invoice_id">([
      "billing:invoice",
      "--workspace",
      workspace_id,
      "--amount",
      "75",
      "--plan",
      "growth",
      "--due",
      "2030-01-31",
    ]);
    expect(invoice).toMatchObject({
      workspace_id,
      provider: "manual",
      plan: "growth",
      amount: 7500,
      currency: "eur",
      status: "open",
      due_at: "2030-01-31T23:59:59.000Z",
      paid_at: null,
    });
    expect(await adminJson(["billing:settle", "--invoice", invoice.invoice_id])).toMatchObject({
      invoice_id: invoice.invoice_id,
      status: "paid",
    });
    const second = await adminJson<"invoice_id">(["billing:invoice", "--workspace", workspace_id, "--amount", "75"]);
    expect(await adminJson(["billing:payment-failed", "--invoice", second.invoice_id])).toMatchObject({
      status: "failed",
    });
    const shown = (await adminJson(["billing:show", "--workspace", workspace_id])) as unknown as Record<
      string,
      unknown
    >;
    expect(shown).toMatchObject({
      workspace_id,
      stage: "overdue",
      plan: "growth",
      currency: "eur",
      provider: "manual",
      allowance: { sends: 100_000, used: 0 },
      cancel_at_period_end: false,
    });
    expect((shown.next_stages as { stage: string }[]).map((next) => next.stage)).toEqual([
      "read_only",
      "deletion_scheduled",
      "deleted",
    ]);
    expect(shown.invoices).toHaveLength(2);
    expect(await adminJson(["billing:pause-clock", "--workspace", workspace_id])).toMatchObject({
      clock_paused_since: expect.any(String),
    });
    expect(await adminJson(["billing:resume-clock", "--workspace", workspace_id])).toMatchObject({
      clock_paused_since: null,
    });
    expect(await adminJson(["billing:settle", "--invoice", second.invoice_id])).toMatchObject({ status: "paid" });
    expect(await adminJson(["billing:cancel", "--workspace", workspace_id])).toMatchObject({
      stage: "active",
      cancel_at_period_end: true,
      next_stages: [{ stage: "read_only" }, { stage: "deletion_scheduled" }, { stage: "deleted" }],
    });
    const refused = await admin(["billing:invoice", "--workspace", workspace_id, "--amount", "12.345", "--json"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("amount");
  });

  it("workflows:list shows runs by state with their error; workflows:retry sends a failed run again and refuses one that did not fail", async () => {
    const now = new Date();
    const runId = newId("run");
    await getDb()
      .insert(workflowRuns)
      .values({
        id: runId,
        functionId: "mailservice-confirmation",
        event: {
          id: `ev-${runId}`,
          name: "consent/confirmation.requested",
          data: { requestId: "cfr_x" },
          ts: now.getTime(),
        },
        status: "failed",
        wakeAt: now,
        error: "smtp refused",
      });
    const failed = (await adminJson(["workflows:list", "--state", "failed"])) as unknown as {
      data: Record<string, unknown>[];
    };
    expect(failed.data.find((run) => run.run_id === runId)).toMatchObject({
      function_id: "confirmation",
      event: "consent/confirmation.requested",
      state: "failed",
      error: "smtp refused",
      steps: 0,
    });
    expect(await adminJson(["workflows:retry", "--run", runId])).toEqual({ run_id: runId, state: "due" });
    const again = await admin(["workflows:retry", "--run", runId, "--json"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("only a failed run is retried");
  });

  it("workspace:sunset shows the sunset of inactive contacts, off by default, and turns it on and off", async () => {
    const { workspace_id } = await adminJson<"workspace_id">([
      "workspace:create",
      "--name",
      "Sunset",
      "--owner",
      "sunset-owner@example.com",
    ]);
    expect(await adminJson(["workspace:sunset", "--workspace", workspace_id])).toEqual({
      workspace_id,
      enabled: false,
      after_campaigns: null,
      after_days: null,
    });
    expect(
      await adminJson(["workspace:sunset", "--workspace", workspace_id, "--on", "--after-campaigns", "5"]),
    ).toEqual({ workspace_id, enabled: true, after_campaigns: 5, after_days: null });
    const refused = await admin(["workspace:sunset", "--workspace", workspace_id, "--on", "--after-days", "0"]);
    expect(refused.code).toBe(1);
    expect(await adminJson(["workspace:sunset", "--workspace", workspace_id, "--off"])).toEqual({
      workspace_id,
      enabled: false,
      after_campaigns: 5,
      after_days: null,
    });
  });

  it("campaign:resend-non-openers makes the resend of a sent campaign, scheduled after the wait, once", async () => {
    const { campaignId } = await seedAcceptedSend(defaultCtx(), "resend-cli@example.com");
    await getDb().update(campaigns).set({ status: "sent" }).where(eq(campaigns.id, campaignId));
    const [original] = await getDb().select().from(campaigns).where(eq(campaigns.id, campaignId));
    const args = ["campaign:resend-non-openers", "--campaign", campaignId, "--subject", "Did you see?"];
    const made = await adminJson([...args, "--wait-hours", "48"]);
    expect(made).toMatchObject({
      resend_of: campaignId,
      status: "scheduled",
      scheduled_at: new Date(original!.sentAt!.getTime() + 48 * 3_600_000).toISOString(),
    });
    const again = await admin([...args, "--wait-hours", "24", "--json"]);
    expect(again.code).toBe(1);
    expect(again.stdout + again.stderr).toContain("campaign_already_resent");
  });

  it("campaign:schedule --local-time sends at HH:MM in each recipient's zone, the workspace's for those without: it prints the slices; a malformed time is refused", async () => {
    const ctx = defaultCtx();
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    await clearForSending(ctx, workspaceId);
    const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
    const actor = systemActor("test", workspaceId);
    await upsertContact(ctx, actor, { email: "tokyo-cli@example.com", timeZone: "Asia/Tokyo", topicIds: [topicId] });
    await upsertContact(ctx, actor, { email: "nozone-cli@example.com", topicIds: [topicId] });
    expect(await adminJson(["workspace:time-zone", "--workspace", workspaceId, "--set", "america/new_york"])).toEqual({
      workspace_id: workspaceId,
      time_zone: "America/New_York",
    });
    const { campaignId } = await createCampaign(ctx, actor, {
      brandId,
      topicId,
      name: "Local",
      subject: "Hi",
      html: "<p>Hi</p>",
    });
    const date = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const refused = await admin([
      "campaign:schedule",
      "--campaign",
      campaignId,
      "--local-time",
      "9:00",
      "--date",
      date,
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stdout + refused.stderr).toContain("time");
    const scheduled = await adminJson([
      "campaign:schedule",
      "--campaign",
      campaignId,
      "--local-time",
      "09:00",
      "--date",
      date,
    ]);
    expect(scheduled).toMatchObject({
      campaign_id: campaignId,
      status: "scheduled",
      local_time: "09:00",
      date,
      slices: [
        { utc_offset: "UTC+09:00", time_zones: ["Asia/Tokyo"] },
        { utc_offset: expect.stringMatching(/^UTC−0[45]:00$/), time_zones: ["America/New_York"] },
      ],
    });
  });

  it("domain:add and domain:check print the records and the DMARC alignment: without a record it says to publish one", async () => {
    const dns = await startDnsServer();
    overrideEnvForTests({ DNS_SERVERS: dns.server, SPF_INCLUDE: "_spf.relay.test" });
    try {
      const { workspace_id } = await adminJson<"workspace_id">([
        "workspace:create",
        "--name",
        "Domain Co",
        "--owner",
        "ops@domain-co.test",
      ]);
      const { brand_id } = await adminJson<"brand_id">([
        "brand:create",
        "--workspace",
        workspace_id,
        "--name",
        "Domain Co",
        "--legal-name",
        "Domain Co Ltd",
        "--postal-address",
        "1 Main Street",
        "--website-url",
        "https://domain-co.test",
        "--sender-email",
        "news@mail.domain-co.test",
      ]);
      const added = (await adminJson([
        "domain:add",
        "--workspace",
        workspace_id,
        "--brand",
        brand_id,
        "--hostname",
        "mail.domain-co.test",
      ])) as unknown as { domain_id: string; alignment: Record<string, unknown> };
      expect(added.alignment).toMatchObject({
        dmarc_passes: false,
        dmarc_record: null,
        policy: {
          status: "fail",
          summary:
            "No DMARC record at _dmarc.mail.domain-co.test, nor at _dmarc.domain-co.test for the whole of domain-co.test.",
        },
        dkim: { mode: "relaxed", status: "waiting" },
        spf: { mode: "relaxed", status: "fail" },
      });
      dns.set("_dmarc.domain-co.test", [{ type: "TXT", data: ["v=DMARC1; p=quarantine; adkim=s"] }]);
      const checked = (await adminJson(["domain:check", "--domain", added.domain_id])) as unknown as {
        alignment: Record<string, unknown>;
      };
      expect(checked.alignment).toMatchObject({
        dmarc_record: "v=DMARC1; p=quarantine; adkim=s",
        policy: { status: "pass" },
        dkim: { mode: "strict" },
      });
    } finally {
      reloadEnv();
      await dns.close();
    }
  });

  it("campaign:health prints the guardrail's figures; a campaign it paused resumes only with --acknowledge", async () => {
    const ctx = defaultCtx();
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
    const { campaignId, report } = await sendingCampaign(ctx, { workspaceId, brandId, topicId }, 1000);
    await report(3, "complained");
    const health = await admin(["campaign:health", "--campaign", campaignId, "--json"]);
    expect(health.code, health.stderr).toBe(0);
    expect(JSON.parse(health.stdout)).toMatchObject({
      campaign_id: campaignId,
      verdict: "stop",
      reason: "complaint_rate",
      scope: "campaign",
      paused_by: { reason: "complaint_rate", scope: "campaign" },
      since_resume: null,
      campaign: { delivered: 1000, complained: 3, hard_bounced: 0, complaint_rate: 0.3, verdict: "stop" },
      brand_24h: { delivered: 1000, complained: 3 },
      thresholds: { complaint_warn_percent: 0.15, complaint_stop_percent: 0.3, minimum_delivered: 500 },
    });
    const refused = await admin(["campaign:resume", "--campaign", campaignId, "--json"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("harm_not_acknowledged");
    expect(await adminJson(["campaign:resume", "--campaign", campaignId, "--acknowledge"])).toEqual({
      campaign_id: campaignId,
      status: "sending",
    });
  });

  it("segment:list lists a workspace's segments, with --topic how many of its subscribers each matches; segment:count counts one", async () => {
    const { workspaceId, brandId } = await seedWorkspace(defaultCtx());
    const actor = systemActor("test", workspaceId);
    const topicId = await seedTopic(defaultCtx(), workspaceId, brandId, { requiresConfirmation: false });
    for (const email of ["ada@lovelace.example", "bob@example.com"])
      await upsertContact(defaultCtx(), actor, { email, topicIds: [topicId] });
    const { segmentId } = await createSegment(defaultCtx(), actor, {
      name: "Lovelaces",
      rule: {
        match: "all",
        groups: [{ match: "all", conditions: [{ kind: "field", field: "email", op: "contains", value: "lovelace" }] }],
      },
    });
    const stamp = expect.stringMatching(/^\d{4}-\d\d-\d\dT/);
    expect(await adminJson(["segment:list", "--workspace", workspaceId])).toEqual({
      segments: [{ segment_id: segmentId, name: "Lovelaces", created_at: stamp, updated_at: stamp }],
    });
    expect(await adminJson(["segment:list", "--workspace", workspaceId, "--topic", topicId])).toEqual({
      segments: [
        { segment_id: segmentId, name: "Lovelaces", created_at: stamp, updated_at: stamp, count: 1, more: false },
      ],
    });
    expect(await adminJson(["segment:count", "--segment", segmentId, "--topic", topicId])).toEqual({
      segment_id: segmentId,
      topic_id: topicId,
      count: 1,
      more: false,
    });
    const missing = await admin(["segment:count", "--segment", "seg_missing", "--topic", topicId]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("segment_not_found");
  });

  it("automation:create, :steps (from a JSON file), :activate, :pause, :resume and :show drive an automation by its id", async () => {
    const { workspaceId, brandId } = await seedWorkspace(defaultCtx());
    const topicId = await seedTopic(defaultCtx(), workspaceId, brandId);
    const created = await adminJson([
      "automation:create",
      "--workspace",
      workspaceId,
      "--topic",
      topicId,
      "--name",
      "Welcome",
    ]);
    expect(created).toEqual({ automation_id: expect.stringMatching(/^aut_/), status: "draft" });
    const automationId = created.automation_id!;
    const dir = mkdtempSync(path.join(tmpdir(), "automation-cli-"));
    try {
      const file = path.join(dir, "steps.json");
      const steps = [
        { type: "send", subject: "Hello {{contact.email}}", text: "Welcome." },
        { type: "wait", minutes: 1440 },
        { type: "send", subject: "Day two", html: "<p>More.</p>" },
      ];
      writeFileSync(file, JSON.stringify(steps));
      expect(await adminJson(["automation:steps", "--automation", automationId, "--file", file])).toEqual({
        automation_id: automationId,
        version_id: expect.stringMatching(/^auv_/),
        version: 1,
      });
      writeFileSync(file, JSON.stringify([{ type: "send", subject: "Hi {{contact.nickname}}", text: "x" }]));
      const refused = await admin(["automation:steps", "--automation", automationId, "--file", file]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("validation_failed");
      for (const [command, status] of [
        ["automation:activate", "active"],
        ["automation:pause", "paused"],
        ["automation:resume", "active"],
      ] as const)
        expect(await adminJson([command, "--automation", automationId])).toEqual({
          automation_id: automationId,
          status,
        });
      expect(await adminJson(["automation:show", "--automation", automationId])).toEqual({
        automation_id: automationId,
        workspace_id: workspaceId,
        topic_id: topicId,
        name: "Welcome",
        status: "active",
        trigger: "topic_confirmed",
        version: 1,
        entered: 0,
        active: 0,
        completed: 0,
        exited: {},
        steps: [
          { ...steps[0], index: 0, waiting: 0, sent: 0, skipped: {}, opened: 0, clicked: 0 },
          { ...steps[1], index: 1, waiting: 0 },
          { ...steps[2], index: 2, waiting: 0, sent: 0, skipped: {}, opened: 0, clicked: 0 },
        ],
        versions: [{ version: 1, active: 0 }],
      });
      expect(await adminJson(["automation:move", "--automation", automationId])).toEqual({
        automation_id: automationId,
        moved: 0,
        version: 1,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const missing = await admin(["automation:show", "--automation", "aut_missing"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("automation_not_found");
  });

  it("help lists every command", async () => {
    const help = await admin(["help"]);
    expect(help.code).toBe(0);
    for (const command of [
      "workspace:create",
      "workspace:approve",
      "workspace:sunset",
      "brand:create",
      "brand:approve",
      "brand:update",
      "topic:create",
      "topic:archive",
      "list:create",
      "attribute:define",
      "contact:export-data",
      "contact:erase",
      "key:create",
      "key:revoke",
      "user:create",
      "mailbox:list",
      "mailbox:event",
      "webhook:create",
      "webhook:rotate",
      "webhook:enable",
      "webhook:deliveries",
      "billing:invoice",
      "billing:payment-failed",
      "billing:settle",
      "billing:cancel",
      "billing:pause-clock",
      "billing:resume-clock",
      "billing:show",
      "workflows:list",
      "workflows:retry",
      "domain:warm-up",
      "domain:add",
      "domain:check",
      "campaign:resume",
      "campaign:health",
      "segment:list",
      "segment:count",
      "automation:create",
      "automation:steps",
      "automation:update",
      "automation:activate",
      "automation:pause",
      "automation:resume",
      "automation:show",
    ]) {
      expect(help.stdout).toContain(command);
    }
  });

  it(
    "the process prints what the command printed and exits with its code: 0 done, 2 usage, 1 refused",
    { timeout: PROCESS_TEST_TIMEOUT_MS },
    async () => {
      const help = await adminProcess(["help"]);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain("usage: npm run -s admin");
      const usage = await adminProcess(["nope:create"]);
      expect(usage).toMatchObject({ code: 2, stdout: "" });
      expect(usage.stderr).toContain('unknown command "nope:create"');
      const refused = await adminProcess([
        "workspace:approve",
        "--workspace",
        "ws_00000000000000000000000000",
        "--json",
      ]);
      expect(refused).toMatchObject({ code: 1, stdout: "" });
      expect(refused.stderr).toContain("workspace_not_found");
    },
  );
});

describe("admin CLI on the embedded default", () => {
  const dataDir = path.join(resolveDataDir({ DATA_DIR: ".data" }), `cli-test-${process.pid}-${Date.now()}`);
  const env = { DATABASE_URL: "", DATA_DIR: dataDir };
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  const serverRunning = () => existsSync(path.join(dataDir, "pg", "postmaster.pid"));

  it(
    "starts the embedded database when the app is down, and stops it afterwards",
    { timeout: PROCESS_TEST_TIMEOUT_MS },
    async () => {
      const { workspace_id } = await adminJson<"workspace_id">(
        ["workspace:create", "--name", "Solo", "--owner", "solo@example.com"],
        env,
      );
      expect(serverRunning()).toBe(false);
      expect(JSON.parse(readFileSync(path.join(dataDir, "secrets.json"), "utf8"))).toHaveProperty("AUTH_SECRET");
      // The data is still there for the next command.
      const { brand_id } = await adminJson<"brand_id">(
        [
          "brand:create",
          "--workspace",
          workspace_id,
          "--name",
          "Solo",
          "--legal-name",
          "Solo Ltd",
          "--postal-address",
          "2 Lane",
          "--website-url",
          "https://solo.test",
          "--sender-email",
          "hi@solo.test",
        ],
        env,
      );
      expect(brand_id).toMatch(/^br_/);
    },
  );

  it(
    "uses the running embedded server (the app's) and leaves it running",
    { timeout: PROCESS_TEST_TIMEOUT_MS },
    async () => {
      const secrets = JSON.parse(readFileSync(path.join(dataDir, "secrets.json"), "utf8"));
      const app = await startEmbeddedPostgres({ dataDir, password: secrets.EMBEDDED_PG_PASSWORD });
      try {
        const { workspace_id } = await adminJson<"workspace_id">(
          ["workspace:create", "--name", "Shared", "--owner", "shared@example.com"],
          env,
        );
        expect(serverRunning()).toBe(true);
        const postgres = (await import("postgres")).default;
        const sql = postgres(app.url, { max: 1 });
        const rows = await sql`select name from workspaces where id = ${workspace_id}`;
        await sql.end();
        expect(rows).toEqual([{ name: "Shared" }]);
      } finally {
        await app.stop();
      }
    },
  );
});

import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { z } from "zod";

import { v1Document } from "@/app/v1/v1-document";
import { systemActor } from "@/lib/actor";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { rawClient } from "@/lib/db/client";
import { overrideEnvForTests, reloadEnv } from "@/lib/env";
import { changedTables, checksumTables } from "@/lib/testing/database-checksum";
import { startDnsServer } from "@/lib/testing/dns-server";
import { seedKey } from "@/lib/testing/factories";
import { judgeAnswer } from "@/lib/testing/fuzz/check-refusal";
import { operationsOf, type Operation } from "@/lib/testing/fuzz/operations";
import { sendToV1 } from "@/lib/testing/fuzz/send-to-v1";
import {
  exampleInput,
  filesUnder,
  inputSchema,
  operationSlots,
  parameterNames,
  pathSlot,
  routeParams,
  schemaNames,
  type ParameterTable,
  type Slot,
} from "@/lib/testing/id-slots";
import { ID_KINDS, seedTenant, type IdKind, type Tenant } from "@/lib/testing/tenant-fixture";
import { testCtx } from "@/lib/testing/test-context";

const signedIn = vi.hoisted(() => ({ user: null as { id: string; email: string; name: string } | null }));
// The session cookie is Next.js's business; here the member of workspace A is signed in by hand. All that
// follows (membership of the workspace the call names, the input schema, the domain verb) runs as in production.
vi.mock("@/lib/auth/current-user", () => ({
  currentUser: async () => signedIn.user,
  requireUser: async () => signedIn.user,
}));
// Revalidation needs Next's request store; what it would refresh is not under test.
vi.mock("next/cache", async (original) => ({
  ...(await original<typeof import("next/cache")>()),
  revalidatePath: () => {},
}));

const { ctx } = testCtx(new Date());
const sql = rawClient(ctx.db);

/**
 * Every name a /v1 route, a dashboard route or a dashboard action takes: the
 * kind of id it names, or null. The first test fails on a name missing here,
 * so a new route or action is covered once its names are: an id name joins
 * every matrix below without another line.
 */
const PARAMETERS: ParameterTable = {
  // Ids. /v1 path parameters are all {id}: the segment before it says of what.
  "contacts/{id}": "contact",
  "lists/{id}": "list",
  "suppressions/{id}": "suppression",
  workspaceId: "workspace",
  userId: "user",
  brandId: "brand",
  topicId: "topic",
  topicIds: "topic",
  topic_id: "topic",
  topic_ids: "topic",
  topic: "topic",
  listId: "list",
  list: "list",
  contactId: "contact",
  contact_id: "contact",
  contact_ids: "contact",
  contactIds: "contact",
  ids: "contact",
  bulkActionId: "bulk_action",
  after: "contact",
  suppressionId: "suppression",
  campaignId: "campaign",
  keyId: "key",
  apiKeyId: "key",
  endpointId: "endpoint",
  importId: "import",
  formId: "form",
  domainId: "domain",
  messageId: "message",
  templateId: "template",
  segmentId: "segment",
  automationId: "automation",
  // Names that name no id.
  ...Object.fromEntries(
    [
      ...[
        "email",
        "first_name",
        "last_name",
        "attributes",
        "website",
        "domain",
        "note",
        "status",
        "limit",
        "cursor",
        "from",
        "to",
        "interval",
        "q",
        "sort",
        "columns",
      ],
      ...[
        "name",
        "description",
        "requiresConfirmation",
        "consentAsserted",
        "firstName",
        "lastName",
        "mapping",
        "policy",
        "kind",
        "environment",
        "origins",
        "confirmation",
        "filters",
      ],
      ...[
        "legalName",
        "postalAddress",
        "websiteUrl",
        "senderEmail",
        "logoUrl",
        "primaryColor",
        "changes",
        "hostname",
        "resync",
        "enabled",
        "plan",
        "key",
        "type",
      ],
      ...[
        "subject",
        "previewText",
        "html",
        "text",
        "document",
        "tags",
        "at",
        "fields",
        "label",
        "required",
        "texts",
        "title",
        "button",
        "success",
        "checkInbox",
      ],
      ...[
        "consent",
        "privacyUrl",
        "style",
        "color",
        "corners",
        "theme",
        "challenge",
        "redirectUrl",
        "reason",
        "_previous",
        "form",
        "keysAndEndpoints",
        "role",
        "provider",
        "ratePerMinute",
      ],
      ...["includeInactive", "enabled", "afterCampaigns", "afterDays"],
      ...[
        "acknowledged",
        "complaintWarnPercent",
        "complaintStopPercent",
        "hardBounceWarnPercent",
        "hardBounceStopPercent",
        "minimumDelivered",
      ],
      ...["waitHours", "timeZone"],
      ...["properties", "occurred_at", "startAutomations"],
      ...["dimension", "variants", "testShare", "metric", "waitMinutes", "variant"],
      ...["mode", "date", "time", "time_zone"],

      ...["rule", "rule_json", "segmentMode", "match", "groups", "conditions"],
      ...["trigger", "trigger_settings", "reentry_after_minutes", "exit_condition", "steps"],
    ].map((name) => [name, null]),
  ),
};
const kindOf = (name: string) => PARAMETERS[name.split(".").at(-1)!] ?? PARAMETERS[name] ?? null;

// The dashboard's server actions and its JSON routes, found on disk: a new one is in the matrix without editing this file.
const DASHBOARD = path.resolve("app/(dashboard)/w/[workspaceId]");
const DASHBOARD_API = path.resolve("app/api/dashboard/w/[workspaceId]");
type Action = ((...args: never[]) => Promise<unknown>) & { schema?: z.ZodType };
type DashboardRoute = ((
  request: Request,
  context: { params: Promise<Record<string, string>> },
) => Promise<Response>) & { query?: z.ZodType };

async function dashboardActions(): Promise<{ name: string; action: Action; args: string[]; fields: string[] }[]> {
  const found = [];
  for (const file of filesUnder(DASHBOARD, "actions.ts")) {
    for (const [name, action] of Object.entries((await import(path.join(DASHBOARD, file))) as Record<string, Action>)) {
      // A workspaceAction carries its schema; others take their ids as arguments (webhooks, the mailbox).
      const fields = action.schema ? schemaNames(inputSchema(action.schema)) : [];
      found.push({
        name: `${path.dirname(file)}: ${name}`,
        action,
        args: action.schema ? ["workspaceId"] : parameterNames(action),
        fields,
      });
    }
  }
  return found;
}

async function dashboardRoutes(): Promise<
  { name: string; file: string; method: string; route: DashboardRoute; params: string[]; query: string[] }[]
> {
  const found = [];
  for (const file of filesUnder(DASHBOARD_API, "route.ts")) {
    for (const [method, route] of Object.entries(
      (await import(path.join(DASHBOARD_API, file))) as Record<string, DashboardRoute>,
    )) {
      found.push({
        name: `${method} /api/dashboard/w/[workspaceId]/${path.dirname(file)}`,
        file,
        method,
        route,
        params: ["workspaceId", ...routeParams(file)],
        query: route.query ? schemaNames(inputSchema(route.query)) : [],
      });
    }
  }
  return found;
}

const operations = operationsOf(v1Document());
const PNG_1X1 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const idSlots = (slots: Slot[]) => slots.filter((slot) => kindOf(slot.name) !== null);

let a: Tenant;
let b: Tenant;
let dns: Awaited<ReturnType<typeof startDnsServer>>;

beforeAll(async () => {
  // Sending domains are checked against a DNS server of the test's own; webhook targets on loopback are allowed.
  dns = await startDnsServer();
  overrideEnvForTests({ DNS_SERVERS: dns.server, WEBHOOK_ALLOW_PRIVATE_TARGETS: "1" });
  a = await seedTenant(ctx, "a");
  b = await seedTenant(ctx, "b");
});
afterAll(() => {
  reloadEnv();
  dns.close();
});

/** Runs `call` and lists the tables it changed (every table of the database, checksummed in PostgreSQL; bookkeeping aside). */
async function unchanged<T>(call: () => Promise<T>): Promise<{ answer: T; changed: string[] }> {
  const before = await checksumTables(sql);
  const answer = await call();
  return { answer, changed: changedTables(before, await checksumTables(sql)).map((change) => change.table) };
}

/** How a dashboard action answered: refused (null when it answers nothing at all), and in which words, ids left out. */
interface Outcome {
  refused: boolean | null;
  text: string;
}
const words = (text: string) => text.replace(/\b[a-z]{2,4}_[0-9a-z]{26}\b/g, "<id>");

function outcomeOf(result: unknown): Outcome {
  if (result === undefined) return { refused: null, text: "nothing" };
  const state = result as { ok?: boolean; message?: string; fieldErrors?: Record<string, string>; error?: string };
  if (state.ok === false)
    return { refused: true, text: `${words(state.message ?? "")} ${Object.keys(state.fieldErrors ?? {}).join(",")}` };
  if (state.error) return { refused: true, text: words(state.error) };
  return { refused: false, text: "ok" };
}

function outcomeOfThrown(error: unknown): Outcome {
  const digest = String((error as { digest?: unknown }).digest ?? "");
  if (digest.startsWith("NEXT_REDIRECT")) return { refused: false, text: "redirected" };
  if (digest.startsWith("NEXT_HTTP_ERROR_FALLBACK;404")) return { refused: true, text: "not found" };
  if ((error as { name?: string }).name === "ApiError") return { refused: true, text: words((error as Error).message) };
  return { refused: false, text: `threw ${String(error)}` };
}

/** Calls an action as a member of `tenant` (who must be signed in), with `value` in `slot` and the tenant's own ids everywhere else. */
async function callAction(
  entry: Awaited<ReturnType<typeof dashboardActions>>[number],
  tenant: Tenant,
  slot: string | null,
  value: string,
): Promise<Outcome> {
  const idFor = (name: string, kind: IdKind) =>
    slot !== null && name === slot.split(".").at(-1) ? value : tenant.ids[kind];
  const form = new FormData();
  form.set("url", "http://127.0.0.1:9/matrix");
  form.set("outcome", "delivered");
  const args: unknown[] = entry.args.map((arg) =>
    kindOf(arg) ? idFor(arg, kindOf(arg)!) : arg === "form" ? form : {},
  );
  // A test mail goes only to a member or a verified address of the workspace.
  if (entry.action.schema)
    args.push(exampleInput(inputSchema(entry.action.schema), "input", PARAMETERS, idFor, { to: tenant.verifiedEmail }));
  try {
    return outcomeOf(await (entry.action as (...args: unknown[]) => Promise<unknown>)(...args));
  } catch (error) {
    return outcomeOfThrown(error);
  }
}

// Each cell checksums every table before and after its call: thousands of cells take minutes, many more on a
// busy machine, so the ceilings are generous rather than sized to one machine.
describe("Tenant isolation matrix: every id of workspace B, named from workspace A, in every route and action", () => {
  it("the id table knows every parameter of every /v1 route, dashboard route and dashboard action, and the tenants hold every kind of id", async () => {
    const names = [
      ...operations.flatMap((op) =>
        operationSlots(op).map((slot) => ({ where: `${op.method} ${op.path}`, name: slot.name })),
      ),
      ...(await dashboardRoutes()).flatMap((route) =>
        [...route.params, ...route.query].map((name) => ({ where: route.name, name })),
      ),
      ...(await dashboardActions()).flatMap((action) =>
        [...action.args, ...action.fields].map((name) => ({ where: action.name, name })),
      ),
    ];
    const unknown = names
      .filter(({ name }) => !(name in PARAMETERS) && !(name.split(".").at(-1)! in PARAMETERS))
      .map(({ where, name }) => `${where}: ${name}`);
    expect(
      unknown,
      "parameters the matrix does not know: add each to PARAMETERS with the kind of id it names, or null",
    ).toEqual([]);
    expect(Object.keys(b.ids).sort()).toEqual([...ID_KINDS].sort());
    const kinds = new Set(names.map(({ name }) => kindOf(name)).filter(Boolean));
    expect([...kinds].sort(), "every kind of id the tenants hold is named by some route or action").toEqual(
      [...ID_KINDS].sort(),
    );
  });

  /** A /v1 request to `op` from workspace A with `key`, `value` in `slot` and A's own ids in every other id slot. */
  function v1Request(op: Operation, key: string, slot: Slot | null, value: string): Request {
    const idFor = (name: string, kind: IdKind) => (slot && name === slot.name.split(".").at(-1) ? value : a.ids[kind]);
    const pathname = op.path.replace(/\{(\w+)\}/g, (_, param: string) =>
      encodeURIComponent(idFor(pathSlot(op, param), kindOf(pathSlot(op, param))!)),
    );
    const query = op.query
      .filter(({ name }) => kindOf(name) && (!slot || slot.where !== "query" || slot.name === name))
      .map(({ name }) => `${name}=${encodeURIComponent(idFor(name, kindOf(name)!))}`);
    // POST /v1/events names its contact by id or by address, never both: the matrix names it by id.
    const hints = op.path === "/v1/events" ? { email: undefined } : {};
    const body = op.body ? JSON.stringify(exampleInput(op.body, "body", PARAMETERS, idFor, hints)) : undefined;
    return new Request(`http://localhost:3000${pathname}${query.length ? `?${query.join("&")}` : ""}`, {
      method: op.method,
      body,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body ? { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) } : {}),
      },
    });
  }

  it("/v1: with every key kind of workspace A, every id of workspace B in every path, query and body slot is refused and changes nothing", async () => {
    const keyKinds = Object.keys(a.keys) as (keyof Tenant["keys"])[];
    const cells: string[] = [];
    const failures: string[] = [];
    for (const op of operations) {
      for (const keyKind of keyKinds) {
        // A fresh key per operation and kind: the cells of one route stay inside its rate limit.
        const { key } = await seedKey(ctx, a.workspaceId, {
          kind: keyKind.toLowerCase().includes("publishable") ? "publishable" : "secret",
          environment: keyKind.endsWith("Test") ? "test" : "live",
          brandId: keyKind.startsWith("brand") ? a.ids.brand : undefined,
        });
        for (const slot of idSlots(operationSlots(op))) {
          for (const kind of ID_KINDS) {
            const label = `${op.method} ${op.path} ${keyKind} key, ${slot.name} = B's ${kind}`;
            cells.push(label);
            const { answer, changed } = await unchanged(async () =>
              judgeAnswer(op.method, await sendToV1(v1Request(op, key, slot, b.ids[kind]))),
            );
            if (answer.kind !== "refused" || changed.length)
              failures.push(
                `${label}: ${JSON.stringify(answer).slice(0, 200)}${changed.length ? ` changed ${changed.join(", ")}` : ""}`,
              );
          }
        }
      }
    }
    expect(failures).toEqual([]);
    // The control: with A's own ids in the same slots the same requests succeed, so B's id is what was refused.
    for (const op of operations.filter((o) => idSlots(operationSlots(o)).length > 0)) {
      // Erasing A's contact would take it from every later check: the erasure's control erases one of its own.
      const erases = op.method === "DELETE" && op.path === "/v1/contacts/{id}";
      const own = erases
        ? (await upsertContact(ctx, systemActor("test", a.workspaceId), { email: "erased-control@example.com" }))
            .contact.id
        : "";
      const response = (
        await sendToV1(
          v1Request(
            op,
            op.keyKinds.includes("publishable") ? a.keys.publishable : a.keys.secret,
            erases ? idSlots(operationSlots(op))[0]! : null,
            own,
          ),
        )
      ).response;
      expect(response.status, `${op.method} ${op.path} with workspace A's own ids`).toBeLessThan(300);
    }
    expect(cells.length).toBeGreaterThan(0);
    console.log(
      `tenant matrix /v1: ${cells.length} cells (operations with id slots × ${keyKinds.length} key kinds × slots × ${ID_KINDS.length} kinds of B's ids)`,
    );
  }, 1_200_000);

  it("/v1: a key locked to one brand naming a topic or list of another brand of its own workspace is refused and changes nothing", async () => {
    const failures: string[] = [];
    let cells = 0;
    for (const op of operations) {
      for (const key of [a.keys.brandSecret, a.keys.brandPublishable]) {
        for (const slot of idSlots(operationSlots(op)).filter((s) => ["topic", "list"].includes(kindOf(s.name)!))) {
          const other = kindOf(slot.name) === "topic" ? a.otherBrand.topicId : a.otherBrand.listId;
          cells += 1;
          const { answer, changed } = await unchanged(async () =>
            judgeAnswer(op.method, await sendToV1(v1Request(op, key, slot, other))),
          );
          if (answer.kind !== "refused" || changed.length)
            failures.push(
              `${op.method} ${op.path} ${slot.name}: ${JSON.stringify(answer).slice(0, 200)} ${changed.join(", ")}`,
            );
        }
      }
    }
    expect(failures).toEqual([]);
    expect(cells).toBeGreaterThan(0);
  }, 1_200_000);

  it("dashboard actions: a member of workspace A naming any id of workspace B in any action's arguments or input is refused and changes nothing", async () => {
    const actions = await dashboardActions();
    const failures: string[] = [];
    const refusals = new Map<string, Outcome>();
    let cells = 0;
    signedIn.user = a.owner;
    for (const entry of actions) {
      for (const slot of [...entry.args, ...entry.fields].filter((name) => kindOf(name))) {
        for (const kind of ID_KINDS) {
          cells += 1;
          const { answer, changed } = await unchanged(() => callAction(entry, a, slot, b.ids[kind]));
          if (answer.refused === false || changed.length)
            failures.push(
              `${entry.name} ${slot} = B's ${kind}: ${answer.text.slice(0, 160)}${changed.length ? `; changed ${changed.join(", ")}` : ""}`,
            );
          if (kind === kindOf(slot)) refusals.set(`${entry.name} ${slot}`, answer);
        }
      }
    }
    expect(failures).toEqual([]);
    // The control, on a fresh workspace per action: with its own ids the same call is answered otherwise (or
    // changes something, for an action that answers nothing), so B's id is what was refused.
    const unproven: string[] = [];
    for (const [index, entry] of actions.entries()) {
      const slots = [...entry.args, ...entry.fields].filter((name) => kindOf(name));
      if (slots.length === 0) continue;
      const own = await seedTenant(ctx, `own${index}`);
      signedIn.user = own.owner;
      const { answer, changed } = await unchanged(() => callAction(entry, own, null, ""));
      for (const slot of slots) {
        if (answer.text === refusals.get(`${entry.name} ${slot}`)!.text && changed.length === 0)
          unproven.push(`${entry.name} ${slot}: "${answer.text}" either way`);
      }
    }
    expect(
      unproven,
      "calls refused with workspace A's own ids as with B's: the matrix cannot tell B's id was the reason",
    ).toEqual([]);
    console.log(
      `tenant matrix, dashboard actions: ${cells} cells (${actions.length} actions × their id slots × ${ID_KINDS.length} kinds of B's ids)`,
    );
  }, 1_200_000);

  it("dashboard routes: a member of workspace A naming any id of workspace B in a path or query is answered 404 or without anything of B, and changes nothing", async () => {
    const routes = await dashboardRoutes();
    const failures: string[] = [];
    let cells = 0;
    signedIn.user = a.owner;
    const request = (route: (typeof routes)[number], slot: string | null, value: string) => {
      const idFor = (name: string) => (name === slot ? value : a.ids[kindOf(name)!]);
      const params = Object.fromEntries(route.params.map((name) => [name, idFor(name)]));
      const url = new URL(`http://localhost:3000/api/dashboard/w/${params.workspaceId}/${path.dirname(route.file)}`);
      for (const name of route.query.filter((n) => kindOf(n) && (n === slot || slot === null)))
        url.searchParams.set(name, idFor(name));
      if (route.method !== "POST") return route.route(new Request(url), { params: Promise.resolve(params) });
      // Uploads come from the dashboard's own pages (same origin): a CSV file with its name, or an image.
      url.searchParams.set("name", "matrix.csv");
      const body = route.file.includes("images") ? Buffer.from(PNG_1X1, "base64") : "email\nmatrix@example.com\n";
      return route.route(new Request(url, { method: "POST", body, headers: { origin: "http://localhost:3000" } }), {
        params: Promise.resolve(params),
      });
    };
    for (const route of routes) {
      for (const slot of [...route.params, ...route.query].filter((name) => kindOf(name))) {
        for (const kind of ID_KINDS) {
          cells += 1;
          const { answer, changed } = await unchanged(async () => {
            const response = await request(route, slot, b.ids[kind]);
            // A download that fails after its first byte is cut short: that is not the contract's refusal either.
            return {
              status: response.status,
              text: await response.text().catch((error: unknown) => `(cut short: ${String(error)})`),
            };
          });
          const leaked = [...b.marks, ...Object.values(b.ids).filter((id) => id !== b.ids[kind])].filter((mark) =>
            answer.text.includes(mark),
          );
          const refused = answer.status === 404 || (answer.status === 400 && route.query.includes(slot));
          if (!(refused || (answer.status < 300 && leaked.length === 0)) || changed.length) {
            failures.push(
              `${route.name} ${slot} = B's ${kind}: ${answer.status} ${leaked.length ? `showing ${leaked.join(", ")}` : answer.text.slice(0, 120)}${changed.length ? `; changed ${changed.join(", ")}` : ""}`,
            );
          }
        }
      }
      const own = await request(route, null, "");
      expect(own.status, `${route.name} with workspace A's own ids`).toBeLessThan(300);
    }
    expect(failures).toEqual([]);
    console.log(
      `tenant matrix, dashboard routes: ${cells} cells (${routes.length} routes × their id slots × ${ID_KINDS.length} kinds of B's ids)`,
    );
  }, 1_200_000);
});

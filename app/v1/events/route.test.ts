import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { connectWorkflowEvents } from "@/inngest/emit";
import { systemActor } from "@/lib/actor";
import { createBrand } from "@/lib/brands/create-brand";
import { contactEvents } from "@/lib/db/schema";
import { setEventEmitter } from "@/lib/events/emit-events";
import type { WorkflowEvent } from "@/lib/events/workflow-events";
import { apiClient } from "@/lib/testing/api-client";
import { seedKey, seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";
import { activeAutomation, enteredContacts } from "@/lib/testing/trigger-fixture";

const { ctx } = testCtx();

async function setup() {
  const { workspaceId, brandId } = await seedWorkspace(ctx);
  const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
  const api = apiClient((await seedKey(ctx, workspaceId)).key);
  const subscribed = (await api.post("/v1/contacts", { email: "sub@example.com", topic_ids: [topicId] })).body.data.id;
  const stranger = (await api.post("/v1/contacts", { email: "not@example.com" })).body.data.id;
  const automationId = await activeAutomation(ctx, workspaceId, topicId, "event", { name: "order.completed" });
  return { workspaceId, brandId, topicId, api, subscribed, stranger, automationId };
}

async function recordedEvents(contactId: string) {
  return ctx.db.select().from(contactEvents).where(eq(contactEvents.contactId, contactId));
}

/** Runs started for the automation's entries (the entry's run is emitted with it). */
async function entryRuns(automationId: string): Promise<number> {
  const [row] = (await ctx.db.execute(sql`
    select count(*)::int as n from workflow_runs r join automation_entries e on e.id = r.event->'data'->>'entryId'
    where r.event->>'name' = 'automation/entry.started' and e.automation_id = ${automationId}`)) as unknown as {
    n: number;
  }[];
  return row!.n;
}

describe("POST /v1/events", () => {
  it("records the event, by id or by address, and answers 202 with its id", async () => {
    const { api, subscribed } = await setup();
    const byId = await api.post("/v1/events", {
      contact_id: subscribed,
      name: "order.completed",
      properties: { total: 42 },
    });
    expect(byId.status).toBe(202);
    expect(byId.body.data).toEqual({
      id: expect.stringMatching(/^cev_/),
      contact_id: subscribed,
      name: "order.completed",
      occurred_at: expect.any(String),
    });
    const byEmail = await api.post("/v1/events", {
      email: "SUB@example.com",
      name: "cart.abandoned",
      occurred_at: "2026-01-02T03:04:05.000Z",
    });
    expect(byEmail.status).toBe(202);
    expect(byEmail.body.data.contact_id).toBe(subscribed);
    const rows = await recordedEvents(subscribed);
    expect(rows.map((r) => [r.name, r.properties]).sort()).toEqual([
      ["cart.abandoned", {}],
      ["order.completed", { total: 42 }],
    ]);
    expect(rows.find((r) => r.name === "cart.abandoned")!.occurredAt.toISOString()).toBe("2026-01-02T03:04:05.000Z");
  });

  it("tells waiting runs: contact/event.recorded keyed <contactId>:<name>, waking every brand's runs for an unlocked key", async () => {
    const { api, subscribed, brandId } = await setup();
    const emitted: WorkflowEvent[] = [];
    setEventEmitter(async (_ctx, events) => void emitted.push(...events));
    try {
      const { body } = await api.post("/v1/events", { contact_id: subscribed, name: "order.completed" });
      expect(emitted.filter((e) => e.name === "contact/event.recorded")).toEqual([
        {
          name: "contact/event.recorded",
          id: `contact-event-${body.data.id}`,
          data: {
            eventId: body.data.id,
            workspaceId: expect.any(String),
            contactId: subscribed,
            name: "order.completed",
            key: `${subscribed}:order.completed`,
            brands: { [brandId]: true },
          },
        },
      ]);
    } finally {
      connectWorkflowEvents();
    }
  });

  it("enters a subscribed contact into the automation triggered by that event name, once", async () => {
    const { api, subscribed, automationId } = await setup();
    await api.post("/v1/events", { contact_id: subscribed, name: "order.completed" });
    await api.post("/v1/events", { contact_id: subscribed, name: "order.completed" });
    await api.post("/v1/events", { contact_id: subscribed, name: "other.thing" });
    expect(await enteredContacts(ctx, automationId)).toEqual([subscribed]);
    expect(await entryRuns(automationId)).toBe(1);
  });

  it("does not enter a contact who is not subscribed to the automation's topic, and still records the event", async () => {
    const { api, stranger, automationId } = await setup();
    expect((await api.post("/v1/events", { contact_id: stranger, name: "order.completed" })).status).toBe(202);
    expect(await enteredContacts(ctx, automationId)).toEqual([]);
    expect(await recordedEvents(stranger)).toHaveLength(1);
  });

  it("another workspace's key cannot name the contact: 404 contact_not_found, nothing recorded or entered", async () => {
    const { subscribed, automationId } = await setup();
    const other = await seedWorkspace(ctx);
    const theirs = apiClient((await seedKey(ctx, other.workspaceId)).key);
    const response = await theirs.post("/v1/events", { contact_id: subscribed, name: "order.completed" });
    expect(response.status).toBe(404);
    expect(response.body.error).toMatchObject({
      type: "not_found_error",
      code: "contact_not_found",
      param: "contact_id",
    });
    const byEmail = await theirs.post("/v1/events", { email: "sub@example.com", name: "order.completed" });
    expect(byEmail.body.error).toMatchObject({ code: "contact_not_found", param: "email" });
    expect(await recordedEvents(subscribed)).toEqual([]);
    expect(await enteredContacts(ctx, automationId)).toEqual([]);
  });

  it("another workspace's event of the same name does not enter anyone into this workspace's automation", async () => {
    const { automationId } = await setup();
    const other = await setup();
    await other.api.post("/v1/events", { contact_id: other.subscribed, name: "order.completed" });
    expect(await enteredContacts(ctx, automationId)).toEqual([]);
    expect(await enteredContacts(ctx, other.automationId)).toEqual([other.subscribed]);
  });

  it("a brand-locked key reaches only its brand's automations", async () => {
    const { workspaceId, api, subscribed, automationId } = await setup();
    const { brandId: otherBrand } = await createBrand(ctx, systemActor("test", workspaceId), {
      name: "O",
      legalName: "O Ltd",
      postalAddress: "5 Ave",
      websiteUrl: "https://o.test",
      senderEmail: "o@o.test",
    });
    const otherTopic = await seedTopic(ctx, workspaceId, otherBrand, { requiresConfirmation: false });
    await api.post("/v1/contacts", { email: "sub@example.com", topic_ids: [otherTopic] });
    const otherAutomation = await activeAutomation(ctx, workspaceId, otherTopic, "event", { name: "order.completed" });
    const locked = apiClient((await seedKey(ctx, workspaceId, { brandId: otherBrand })).key);
    expect((await locked.post("/v1/events", { contact_id: subscribed, name: "order.completed" })).status).toBe(202);
    expect(await enteredContacts(ctx, otherAutomation)).toEqual([subscribed]);
    expect(await enteredContacts(ctx, automationId)).toEqual([]);
  });

  it("a brand-locked key's event wakes only its brand's automations' waiting runs: it names that brand alone", async () => {
    const { workspaceId, subscribed } = await setup();
    const { brandId: otherBrand } = await createBrand(ctx, systemActor("test", workspaceId), {
      name: "O",
      legalName: "O Ltd",
      postalAddress: "5 Ave",
      websiteUrl: "https://o.test",
      senderEmail: "o@o.test",
    });
    const locked = apiClient((await seedKey(ctx, workspaceId, { brandId: otherBrand })).key);
    const emitted: WorkflowEvent[] = [];
    setEventEmitter(async (_ctx, events) => void emitted.push(...events));
    try {
      await locked.post("/v1/events", { contact_id: subscribed, name: "order.completed" });
    } finally {
      connectWorkflowEvents();
    }
    const told = emitted.filter((e) => e.name === "contact/event.recorded");
    expect(told.map((e) => e.data)).toEqual([expect.objectContaining({ brands: { [otherBrand]: true } })]);
  });

  it("a test key checks everything and records nothing", async () => {
    const { workspaceId, subscribed, automationId } = await setup();
    const test = apiClient((await seedKey(ctx, workspaceId, { environment: "test" })).key);
    expect((await test.post("/v1/events", { contact_id: subscribed, name: "order.completed" })).status).toBe(202);
    expect((await test.post("/v1/events", { contact_id: "ct_nobody", name: "order.completed" })).status).toBe(404);
    expect(await recordedEvents(subscribed)).toEqual([]);
    expect(await enteredContacts(ctx, automationId)).toEqual([]);
  });
});

describe("POST /v1/events refuses what it cannot take, with validation_failed on the field", () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ["neither contact_id nor email", { name: "x" }, "contact_id"],
    ["both contact_id and email", { contact_id: "ct_x", email: "a@example.com", name: "x" }, "contact_id"],
    ["an invalid address", { email: "not an address", name: "x" }, "email"],
    ["a missing name", { email: "a@example.com" }, "name"],
    ["a name with spaces", { email: "a@example.com", name: "order completed" }, "name"],
    ["a name over 100 characters", { email: "a@example.com", name: "x".repeat(101) }, "name"],
    ["properties that are not an object", { email: "a@example.com", name: "x", properties: [1] }, "properties"],
    [
      "properties over 8 KiB",
      { email: "a@example.com", name: "x", properties: { blob: "x".repeat(8200) } },
      "properties",
    ],
    [
      "occurred_at that is not a timestamp",
      { email: "a@example.com", name: "x", occurred_at: "yesterday" },
      "occurred_at",
    ],
    ["an unknown field", { email: "a@example.com", name: "x", value: 1 }, "value"],
  ];
  for (const [what, body, param] of cases)
    it(`refuses ${what} (param ${param})`, async () => {
      const { api } = await setup();
      const response = await api.post("/v1/events", body);
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ type: "invalid_request_error", code: "validation_failed", param });
    });
});

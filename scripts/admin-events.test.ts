import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { defaultCtx } from "@/lib/context";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { enteredContacts } from "@/lib/testing/trigger-fixture";

import { runAdmin } from "./admin/run-admin";

/** The command in this process, on the test's database: its one JSON object, or its refusal. */
async function admin(args: string[]) {
  const run = await runAdmin([...args, "--json"], (fn) => fn(defaultCtx()));
  return { ...run, json: run.code === 0 ? JSON.parse(run.stdout) : null };
}

describe("admin CLI: triggers and events", () => {
  it("automation:create takes --trigger and --settings; event:send records an event that enters the subscribed contact", async () => {
    const ctx = defaultCtx();
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
    const { contact } = await upsertContact(ctx, systemActor("test", workspaceId), {
      email: "ada@example.com",
      topicIds: [topicId],
    });
    const created = await admin([
      "automation:create",
      "--workspace",
      workspaceId,
      "--topic",
      topicId,
      "--name",
      "After an order",
      "--trigger",
      "event",
      "--settings",
      '{"name":"order.completed"}',
    ]);
    const automationId = created.json.automation_id as string;
    const dir = await import("node:fs").then((fs) => fs.mkdtempSync("/tmp/automation-steps-"));
    const file = `${dir}/steps.json`;
    (await import("node:fs")).writeFileSync(file, JSON.stringify([{ type: "send", subject: "Thanks", text: "Hi." }]));
    expect((await admin(["automation:steps", "--automation", automationId, "--file", file])).code).toBe(0);
    expect((await admin(["automation:activate", "--automation", automationId])).code).toBe(0);

    const sent = await admin([
      "event:send",
      "--workspace",
      workspaceId,
      "--email",
      "ada@example.com",
      "--name",
      "order.completed",
      "--properties",
      '{"total":42}',
    ]);
    expect(sent.json).toEqual({
      id: expect.stringMatching(/^cev_/),
      contact_id: contact.id,
      name: "order.completed",
      occurred_at: expect.any(String),
      entered: 1,
    });
    expect(await enteredContacts(ctx, automationId)).toEqual([contact.id]);
  });

  it("refuses settings that do not fit the trigger, and an event naming no contact", async () => {
    const ctx = defaultCtx();
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    const topicId = await seedTopic(ctx, workspaceId, brandId);
    const badSettings = await admin([
      "automation:create",
      "--workspace",
      workspaceId,
      "--topic",
      topicId,
      "--name",
      "X",
      "--trigger",
      "list_added",
      "--settings",
      '{"name":"x"}',
    ]);
    expect(badSettings.code).toBe(1);
    expect(badSettings.stderr).toContain("validation_failed");
    const nobody = await admin(["event:send", "--workspace", workspaceId, "--contact", "ct_nobody", "--name", "x"]);
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toContain("contact_not_found");
  });
});

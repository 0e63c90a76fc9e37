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

  it("automation:update changes only the settings it names (--trigger, --settings, --reentry, --exit), and a refusal changes nothing", async () => {
    const ctx = defaultCtx();
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    const topicId = await seedTopic(ctx, workspaceId, brandId);
    const created = await admin(["automation:create", "--workspace", workspaceId, "--topic", topicId, "--name", "X"]);
    const automationId = created.json.automation_id as string;
    const exit = { kind: "event", name: "order.completed", within_minutes: null };
    expect(
      (
        await admin([
          "automation:update",
          "--automation",
          automationId,
          "--trigger",
          "event",
          "--settings",
          '{"name":"trial.started"}',
          "--reentry",
          "1440",
          "--exit",
          JSON.stringify(exit),
        ])
      ).json,
    ).toEqual({
      automation_id: automationId,
      trigger: "event",
      trigger_settings: { name: "trial.started" },
      reentry_after_minutes: 1440,
      exit_condition: exit,
    });
    expect((await admin(["automation:update", "--automation", automationId, "--reentry", "never"])).json).toEqual({
      automation_id: automationId,
      trigger: "event",
      trigger_settings: { name: "trial.started" },
      reentry_after_minutes: null,
      exit_condition: exit,
    });
    for (const refused of [["--trigger", "list_added"], ["--reentry", "soon"], ["--exit", "{not json"], []]) {
      const run = await admin(["automation:update", "--automation", automationId, ...refused]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("validation_failed");
    }
    expect((await admin(["automation:update", "--automation", automationId, "--exit", "none"])).json).toMatchObject({
      trigger_settings: { name: "trial.started" },
      reentry_after_minutes: null,
      exit_condition: null,
    });
    const missing = await admin(["automation:update", "--automation", "aut_missing", "--reentry", "0"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("automation_not_found");
  });
});

import { describe, expect, it } from "vitest";

import { systemActor, userActor } from "@/lib/actor";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { automationEntries, automationSends } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { activeEntriesByVersion, automationFigures } from "./automation-figures";
import type { AutomationStep } from "./automation-schemas";
import { createAutomation, setAutomationSteps } from "./automations";
import { listAutomations } from "./list-automations";
import { numberedPath, stepNumberOf } from "./step-paths";
import { stepsFromEditor } from "./steps-from-editor";

const { ctx } = testCtx();
const send = (subject: string): AutomationStep => ({ type: "send", subject, text: "Hi." });

async function workspaceWithAutomation(steps: AutomationStep[] = [send("Welcome")]) {
  const { workspaceId, brandId, ownerUserId } = await seedWorkspace(ctx);
  const topicId = await seedTopic(ctx, workspaceId, brandId);
  const member = userActor(ownerUserId, workspaceId);
  const { automationId } = await createAutomation(ctx, member, { name: "Welcome series", topic_id: topicId });
  const { versionId } = await setAutomationSteps(ctx, member, automationId, { steps });
  return { workspaceId, member, automationId, versionId };
}

/** An entry as a run leaves it: on a version, at a step, active or ended. */
async function entry(
  workspaceId: string,
  automationId: string,
  versionId: string,
  at: { status?: "active" | "completed" | "exited"; stepIndex?: number } = {},
) {
  const { contact } = await upsertContact(ctx, systemActor("test", workspaceId), {
    email: `p-${newId("aen").slice(-8).toLowerCase()}@example.com`,
  });
  const id = newId("aen");
  await ctx.db.insert(automationEntries).values({
    id,
    workspaceId,
    automationId,
    versionId,
    contactId: contact.id,
    status: at.status ?? "active",
    exitReason: at.status === "exited" ? "unsubscribed" : null,
    stepIndex: at.stepIndex ?? 0,
    enteredAt: ctx.clock.now(),
  });
  return id;
}

describe("the automations list and figures are the actor's workspace's only", () => {
  it("the list names each automation of the workspace with how many entered, are active and completed; another workspace's are not listed", async () => {
    const { workspaceId, member, automationId, versionId } = await workspaceWithAutomation();
    const other = await workspaceWithAutomation();
    await entry(workspaceId, automationId, versionId);
    await entry(workspaceId, automationId, versionId, { status: "completed" });
    await entry(workspaceId, automationId, versionId, { status: "exited" });
    const rows = await listAutomations(ctx, member);
    expect(rows).toMatchObject([
      { id: automationId, name: "Welcome series", trigger: "topic_confirmed", entered: 3, active: 1, completed: 1 },
    ]);
    expect(rows.map((row) => row.id)).not.toContain(other.automationId);
  });

  it("a new version says how many people are still on older ones; another workspace's automation is not found and its counts are never read", async () => {
    const { workspaceId, member, automationId, versionId } = await workspaceWithAutomation();
    await entry(workspaceId, automationId, versionId);
    await entry(workspaceId, automationId, versionId);
    await entry(workspaceId, automationId, versionId, { status: "completed" });
    await setAutomationSteps(ctx, member, automationId, { steps: [send("Welcome, again")] });
    expect(await activeEntriesByVersion(ctx, member, automationId)).toEqual([{ version: 1, active: 2 }]);
    expect(await automationFigures(ctx, member, automationId)).toMatchObject({ version: 2, onOlderVersions: 2 });

    const stranger = await workspaceWithAutomation();
    await expect(activeEntriesByVersion(ctx, stranger.member, automationId)).rejects.toMatchObject({
      code: "automation_not_found",
    });
    await expect(automationFigures(ctx, stranger.member, automationId)).rejects.toMatchObject({
      code: "automation_not_found",
    });
  });

  it("a step inside a branch has figures of its own, by its pre-order number", async () => {
    const steps: AutomationStep[] = [
      send("First"),
      {
        type: "branch",
        condition: { kind: "opened", step: 0 },
        yes: [{ type: "wait", minutes: 60 }],
        no: [send("Nudge")],
      },
      send("Last"),
    ];
    const { workspaceId, member, automationId, versionId } = await workspaceWithAutomation(steps);
    await entry(workspaceId, automationId, versionId, { stepIndex: 2 });
    const sent = await entry(workspaceId, automationId, versionId, { stepIndex: 4 });
    await ctx.db.insert(automationSends).values({
      id: newId("asn"),
      workspaceId,
      automationId,
      entryId: sent,
      stepIndex: 3,
      status: "sent",
      sentAt: ctx.clock.now(),
    });
    const figures = await automationFigures(ctx, member, automationId);
    expect(figures.steps.map((s) => [s.index, s.type, s.waiting, s.sent ?? null])).toEqual([
      [0, "send", 0, 0],
      [1, "branch", 0, null],
      [2, "wait", 1, null],
      [3, "send", 0, 1],
      [4, "send", 1, 0],
    ]);
  });
});

describe("steps from the builder", () => {
  it("a mail written in blocks is rendered to html and text and keeps its document", async () => {
    const { member, automationId } = await workspaceWithAutomation();
    const document = {
      type: "doc",
      content: [{ type: "paragraph", content: [{ type: "text", text: "Glad you are here." }] }],
    };
    const [step] = await stepsFromEditor(ctx, member, automationId, [{ type: "send", subject: "Hi", document }]);
    expect(step).toMatchObject({ type: "send", subject: "Hi", document });
    expect((step as { html: string }).html).toContain("Glad you are here.");
    expect((step as { text: string }).text).toContain("Glad you are here.");
  });

  it("a problem inside a branch is named by the step's pre-order number, as the builder numbers it", async () => {
    const { member, automationId } = await workspaceWithAutomation();
    const steps = [
      send("First"),
      {
        type: "branch",
        condition: { kind: "event", name: "paid" },
        yes: [send("Thanks")],
        no: [{ type: "send", subject: "", text: "x" }],
      },
    ];
    await expect(stepsFromEditor(ctx, member, automationId, steps)).rejects.toMatchObject({
      code: "validation_failed",
      param: "steps.3.subject",
    });
  });

  it("another workspace's automation is not found before anything of the steps is read", async () => {
    const { automationId } = await workspaceWithAutomation();
    const stranger = await workspaceWithAutomation();
    await expect(stepsFromEditor(ctx, stranger.member, automationId, "not steps")).rejects.toMatchObject({
      code: "automation_not_found",
    });
  });

  it("zod's tree paths become pre-order numbers: a yes arm follows its branch, a no arm follows the whole yes arm", () => {
    const steps = [
      { type: "wait" },
      {
        type: "branch",
        yes: [{ type: "send" }, { type: "branch", yes: [{ type: "exit" }], no: [] }],
        no: [{ type: "wait" }],
      },
      { type: "exit" },
    ];
    expect(numberedPath(steps, [0, "minutes"])).toBe("steps.0.minutes");
    expect(numberedPath(steps, [1, "condition", "name"])).toBe("steps.1.condition.name");
    expect(numberedPath(steps, [1, "yes", 0, "subject"])).toBe("steps.2.subject");
    expect(numberedPath(steps, [1, "yes", 1, "yes", 0, "type"])).toBe("steps.4.type");
    expect(numberedPath(steps, [1, "no", 0, "minutes"])).toBe("steps.5.minutes");
    expect(numberedPath(steps, [2, "type"])).toBe("steps.6.type");
    expect(numberedPath(steps, [])).toBe("steps");
    expect(stepNumberOf("steps.5.minutes")).toBe(5);
    expect(stepNumberOf("steps")).toBeNull();
  });
});

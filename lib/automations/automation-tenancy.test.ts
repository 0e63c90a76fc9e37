import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { apiKeyActor, systemActor, userActor } from "@/lib/actor";
import { automations, automationVersions } from "@/lib/db/schema";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import {
  activateAutomation,
  createAutomation,
  pauseAutomation,
  resumeAutomation,
  setAutomationSteps,
  showAutomation,
} from "./automations";

const { ctx } = testCtx();
const steps = [{ type: "send" as const, subject: "Hello", text: "Hi." }];

async function tenants() {
  const a = await seedWorkspace(ctx);
  const b = await seedWorkspace(ctx);
  const topicOfA = await seedTopic(ctx, a.workspaceId, a.brandId);
  const memberOfA = userActor(a.ownerUserId, a.workspaceId);
  const memberOfB = userActor(b.ownerUserId, b.workspaceId);
  const { automationId } = await createAutomation(ctx, memberOfA, { name: "Welcome", topic_id: topicOfA });
  await setAutomationSteps(ctx, memberOfA, automationId, { steps });
  return { a, b, topicOfA, memberOfA, memberOfB, automationId };
}

describe("automations are reached only from their own workspace", () => {
  it("another workspace's actor cannot see or change an automation: it is not found, and nothing changes", async () => {
    const { memberOfB, automationId } = await tenants();
    const notFound = { code: "automation_not_found" };
    await expect(showAutomation(ctx, memberOfB, automationId)).rejects.toMatchObject(notFound);
    await expect(setAutomationSteps(ctx, memberOfB, automationId, { steps })).rejects.toMatchObject(notFound);
    await expect(activateAutomation(ctx, memberOfB, automationId)).rejects.toMatchObject(notFound);
    await expect(pauseAutomation(ctx, memberOfB, automationId)).rejects.toMatchObject(notFound);
    await expect(resumeAutomation(ctx, memberOfB, automationId)).rejects.toMatchObject(notFound);
    const [row] = await ctx.db.select().from(automations).where(eq(automations.id, automationId));
    expect(row!.status).toBe("draft");
    const versions = await ctx.db
      .select()
      .from(automationVersions)
      .where(eq(automationVersions.automationId, automationId));
    expect(versions).toHaveLength(1);
  });

  it("an automation is created only on a topic of the actor's workspace, and the operator must name a workspace", async () => {
    const { b, topicOfA, memberOfB } = await tenants();
    await expect(createAutomation(ctx, memberOfB, { name: "Stolen", topic_id: topicOfA })).rejects.toMatchObject({
      code: "topic_not_found",
    });
    await expect(createAutomation(ctx, systemActor("test"), { name: "X", topic_id: topicOfA })).rejects.toMatchObject({
      code: "workspace_required",
    });
    expect(await ctx.db.select().from(automations).where(eq(automations.workspaceId, b.workspaceId))).toEqual([]);
  });

  it("a key locked to another brand of the workspace does not reach the automation", async () => {
    const { a, automationId } = await tenants();
    const lockedElsewhere = apiKeyActor({
      keyId: "key_x",
      workspaceId: a.workspaceId,
      brandId: "br_other",
      mode: "live",
    });
    await expect(showAutomation(ctx, lockedElsewhere, automationId)).rejects.toMatchObject({
      code: "automation_not_found",
    });
  });

  it("steps are checked: merge tags by the campaign rules, and an automation without steps is not activated", async () => {
    const { a, topicOfA, memberOfA, automationId } = await tenants();
    await expect(
      setAutomationSteps(ctx, memberOfA, automationId, {
        steps: [{ type: "send", subject: "Hi {{contact.nickname}}", text: "x" }],
      }),
    ).rejects.toMatchObject({ code: "validation_failed", param: "steps.0.subject" });
    await expect(
      setAutomationSteps(ctx, memberOfA, automationId, { steps: [{ type: "wait", minutes: 0 }] as never }),
    ).rejects.toMatchObject({ code: "validation_failed" });
    const { automationId: empty } = await createAutomation(ctx, memberOfA, { name: "Empty", topic_id: topicOfA });
    await expect(activateAutomation(ctx, memberOfA, empty)).rejects.toMatchObject({ code: "automation_without_steps" });
    expect(await activateAutomation(ctx, systemActor("test", a.workspaceId), automationId)).toEqual({
      automationId,
      status: "active",
    });
  });
});

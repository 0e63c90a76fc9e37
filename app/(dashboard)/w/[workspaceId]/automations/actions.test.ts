import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";

import { automations, automationVersions, users } from "@/lib/db/schema";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import {
  activateAutomationAction,
  createAutomationAction,
  pauseAutomationAction,
  saveAutomationStepsAction,
  updateAutomationSettingsAction,
} from "./actions";

const signedIn = vi.hoisted(() => ({ user: null as { id: string; email: string; name: string } | null }));
// The session cookie is Next.js's business; the member is signed in by hand, and the rest runs as in production.
vi.mock("@/lib/auth/current-user", () => ({
  currentUser: async () => signedIn.user,
  requireUser: async () => signedIn.user,
}));
vi.mock("next/cache", async (original) => ({
  ...(await original<typeof import("next/cache")>()),
  revalidatePath: () => {},
}));

const { ctx } = testCtx();

async function signedInWorkspace() {
  const { workspaceId, brandId, ownerUserId } = await seedWorkspace(ctx);
  const topicId = await seedTopic(ctx, workspaceId, brandId);
  const [owner] = await ctx.db.select().from(users).where(eq(users.id, ownerUserId));
  const signIn = () => (signedIn.user = { id: owner!.id, email: owner!.email, name: "Owner" });
  signIn();
  return { workspaceId, topicId, signIn };
}

const steps = [
  { type: "send", subject: "Welcome", html: "<p>Hello</p>" },
  { type: "wait", minutes: 1440 },
];

describe("automation actions act for a member of the automation's workspace only", () => {
  it("a member creates an automation, saves its steps as versions (told how many are on older ones) and activates it", async () => {
    const { workspaceId, topicId } = await signedInWorkspace();
    const created = await createAutomationAction(workspaceId, { name: "Welcome", topic_id: topicId });
    expect(created).toMatchObject({ ok: true });
    const { automationId } = (created as { result: { automationId: string } }).result;
    expect(await saveAutomationStepsAction(workspaceId, { automationId, steps })).toEqual({
      ok: true,
      result: { version: 1, onOlderVersions: 0 },
    });
    expect(await saveAutomationStepsAction(workspaceId, { automationId, steps })).toMatchObject({
      result: { version: 2 },
    });
    expect(await activateAutomationAction(workspaceId, { automationId })).toMatchObject({ ok: true });
    const [row] = await ctx.db.select().from(automations).where(eq(automations.id, automationId));
    expect(row!.status).toBe("active");
  });

  it("a trigger's missing setting and a step's problem come back beside their field", async () => {
    const { workspaceId, topicId } = await signedInWorkspace();
    const refused = await createAutomationAction(workspaceId, {
      name: "Listed",
      topic_id: topicId,
      trigger: "list_added",
    });
    expect(refused).toMatchObject({ ok: false });
    expect(Object.keys((refused as { fieldErrors: Record<string, string> }).fieldErrors)).toEqual([
      "trigger_settings.list_id",
    ]);
    const created = await createAutomationAction(workspaceId, { name: "Welcome", topic_id: topicId });
    const { automationId } = (created as { result: { automationId: string } }).result;
    const bad = await saveAutomationStepsAction(workspaceId, {
      automationId,
      steps: [...steps, { type: "send", subject: "Hi {{contact.nickname}}", text: "x" }],
    });
    expect(bad).toMatchObject({ ok: false, fieldErrors: { "steps.2.subject": expect.any(String) } });
  });

  it("a member of another workspace naming the automation is told it is not found, and nothing changes", async () => {
    const mine = await signedInWorkspace();
    const created = await createAutomationAction(mine.workspaceId, { name: "Welcome", topic_id: mine.topicId });
    const { automationId } = (created as { result: { automationId: string } }).result;
    await saveAutomationStepsAction(mine.workspaceId, { automationId, steps });

    const stranger = await signedInWorkspace();
    for (const refused of [
      await saveAutomationStepsAction(stranger.workspaceId, { automationId, steps }),
      await activateAutomationAction(stranger.workspaceId, { automationId }),
      await pauseAutomationAction(stranger.workspaceId, { automationId }),
      // Naming the other workspace itself: the stranger is no member of it.
      await activateAutomationAction(mine.workspaceId, { automationId }),
    ])
      expect(refused).toMatchObject({ ok: false });
    expect(await saveAutomationStepsAction(stranger.workspaceId, { automationId, steps })).toMatchObject({
      fieldErrors: { automation_id: expect.stringMatching(/No automation/) },
    });
    const [row] = await ctx.db.select().from(automations).where(eq(automations.id, automationId));
    expect(row!.status).toBe("draft");
    expect(
      await ctx.db.select().from(automationVersions).where(eq(automationVersions.automationId, automationId)),
    ).toHaveLength(1);
  });

  it("a member changes an automation's trigger, re-entry and exit condition from the builder; a problem comes back beside its field and changes nothing", async () => {
    const { workspaceId, topicId } = await signedInWorkspace();
    const created = await createAutomationAction(workspaceId, { name: "Welcome", topic_id: topicId });
    const { automationId } = (created as { result: { automationId: string } }).result;
    const refused = await updateAutomationSettingsAction(workspaceId, {
      automationId,
      trigger: "list_added",
      trigger_settings: {},
      reentry_after_minutes: null,
      exit_condition: null,
    });
    expect(refused).toMatchObject({ ok: false, fieldErrors: { "trigger_settings.list_id": expect.any(String) } });
    expect(
      await updateAutomationSettingsAction(workspaceId, { automationId, reentry_after_minutes: -5 }),
    ).toMatchObject({ ok: false, fieldErrors: { reentry_after_minutes: expect.any(String) } });
    const [unchanged] = await ctx.db.select().from(automations).where(eq(automations.id, automationId));
    expect(unchanged).toMatchObject({ trigger: "topic_confirmed", reentryAfterMinutes: null, exitCondition: null });

    const exit = { kind: "event" as const, name: "order.completed", within_minutes: null };
    expect(
      await updateAutomationSettingsAction(workspaceId, {
        automationId,
        trigger: "event",
        trigger_settings: { name: "trial.started" },
        reentry_after_minutes: 43_200,
        exit_condition: exit,
      }),
    ).toMatchObject({ ok: true });
    const [row] = await ctx.db.select().from(automations).where(eq(automations.id, automationId));
    expect(row).toMatchObject({
      trigger: "event",
      triggerSettings: { name: "trial.started" },
      reentryAfterMinutes: 43_200,
      exitCondition: exit,
    });

    const stranger = await signedInWorkspace();
    expect(
      await updateAutomationSettingsAction(stranger.workspaceId, { automationId, reentry_after_minutes: null }),
    ).toMatchObject({ ok: false, fieldErrors: { automation_id: expect.stringMatching(/No automation/) } });
    const [after] = await ctx.db.select().from(automations).where(eq(automations.id, automationId));
    expect(after!.reentryAfterMinutes).toBe(43_200);
  });
});

import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { apiKeyActor, systemActor, userActor } from "@/lib/actor";
import { createBrand } from "@/lib/brands/create-brand";
import { createCampaign } from "@/lib/campaigns/save-campaign";
import { defineAttribute } from "@/lib/contacts/define-attribute";
import { automations, automationVersions } from "@/lib/db/schema";
import { createList } from "@/lib/lists/create-list";
import type { SegmentCondition } from "@/lib/segments/segment-rule-schema";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import type { AutomationCondition, AutomationStep, CreateAutomationInput } from "./automation-schemas";
import {
  activateAutomation,
  createAutomation,
  pauseAutomation,
  resumeAutomation,
  setAutomationSteps,
  showAutomation,
  updateAutomationSettings,
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
    await expect(
      updateAutomationSettings(ctx, memberOfB, automationId, { reentry_after_minutes: 0 }),
    ).rejects.toMatchObject(notFound);
    const [row] = await ctx.db.select().from(automations).where(eq(automations.id, automationId));
    expect(row!.status).toBe("draft");
    expect(row!.reentryAfterMinutes).toBeNull();
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

/** A segment condition of one rule condition, as a branch or an exit condition holds it. */
const segmentOf = (condition: SegmentCondition): AutomationCondition => ({
  kind: "segment",
  rule: { match: "all", groups: [{ match: "all", conditions: [condition] }] },
});

/** Workspace A with a second brand; each brand, and workspace B, with a list and a campaign of their own. */
async function referenced() {
  const t = await tenants();
  const actorOfA = systemActor("test", t.a.workspaceId);
  const actorOfB = systemActor("test", t.b.workspaceId);
  const { brandId: sideBrand } = await createBrand(ctx, actorOfA, {
    name: "Side",
    legalName: "Side Ltd",
    postalAddress: "5 Ave",
    websiteUrl: "https://side.test",
    senderEmail: "news@side.test",
  });
  const sideTopic = await seedTopic(ctx, t.a.workspaceId, sideBrand);
  const topicOfB = await seedTopic(ctx, t.b.workspaceId, t.b.brandId);
  const listOf = async (actor: typeof actorOfA, brandId: string) =>
    (await createList(ctx, actor, { brandId, name: "Readers" })).listId;
  const campaignOf = async (actor: typeof actorOfA, brandId: string, topicId: string) =>
    (await createCampaign(ctx, actor, { brandId, topicId, name: "News", subject: "News", html: "<p>News</p>" }))
      .campaignId;
  return {
    ...t,
    sideBrand,
    sideTopic,
    ours: { list: await listOf(actorOfA, t.a.brandId), campaign: await campaignOf(actorOfA, t.a.brandId, t.topicOfA) },
    side: { list: await listOf(actorOfA, sideBrand), campaign: await campaignOf(actorOfA, sideBrand, sideTopic) },
    theirs: { list: await listOf(actorOfB, t.b.brandId), campaign: await campaignOf(actorOfB, t.b.brandId, topicOfB) },
  };
}

const automationsOf = (workspaceId: string) =>
  ctx.db.select().from(automations).where(eq(automations.workspaceId, workspaceId));

describe("an automation names only lists, campaigns and attributes its actor reaches", () => {
  it("createAutomation refuses a trigger or exit condition naming another workspace's list or campaign, or an undefined attribute (a date trigger's must be a date): validation_failed on the field, nothing created", async () => {
    const { a, topicOfA, memberOfA, theirs, ours } = await referenced();
    const before = (await automationsOf(a.workspaceId)).length;
    const cases: [Partial<CreateAutomationInput>, string][] = [
      [{ trigger: "list_added", trigger_settings: { list_id: theirs.list } }, "trigger_settings.list_id"],
      [{ trigger: "list_added", trigger_settings: { list_id: "ls_nowhere" } }, "trigger_settings.list_id"],
      [{ trigger: "link_clicked", trigger_settings: { campaign_id: theirs.campaign } }, "trigger_settings.campaign_id"],
      [
        { exit_condition: segmentOf({ kind: "list", op: "in", listId: theirs.list }) },
        "exit_condition.rule.groups.0.conditions.0.listId",
      ],
      [
        {
          exit_condition: segmentOf({ kind: "engagement", op: "did", action: "opened", campaignId: theirs.campaign }),
        },
        "exit_condition.rule.groups.0.conditions.0.campaignId",
      ],
      [
        { exit_condition: segmentOf({ kind: "attribute", key: "plan", op: "equals", value: "pro" }) },
        "exit_condition.rule.groups.0.conditions.0.key",
      ],
      [{ trigger: "attribute_changed", trigger_settings: { attribute: "plan" } }, "trigger_settings.attribute"],
      [{ trigger: "date_attribute", trigger_settings: { attribute: "renews_on" } }, "trigger_settings.attribute"],
      // A date comes round only for a date attribute.
      [{ trigger: "date_attribute", trigger_settings: { attribute: "seats" } }, "trigger_settings.attribute"],
    ];
    await defineAttribute(ctx, memberOfA, { key: "seats", type: "number" });
    for (const [input, param] of cases)
      await expect(
        createAutomation(ctx, memberOfA, { name: "Refused", topic_id: topicOfA, ...input }),
      ).rejects.toMatchObject({ type: "invalid_request_error", code: "validation_failed", param });
    expect(await automationsOf(a.workspaceId)).toHaveLength(before);

    await defineAttribute(ctx, memberOfA, { key: "renews_on", type: "date" });
    await createAutomation(ctx, memberOfA, {
      name: "Renewals",
      topic_id: topicOfA,
      trigger: "date_attribute",
      trigger_settings: { attribute: "renews_on" },
    });
    await createAutomation(ctx, memberOfA, {
      name: "Ours",
      topic_id: topicOfA,
      trigger: "link_clicked",
      trigger_settings: { campaign_id: ours.campaign },
      exit_condition: segmentOf({ kind: "list", op: "in", listId: ours.list }),
    });
    expect(await automationsOf(a.workspaceId)).toHaveLength(before + 2);
  });

  it("a brand-locked actor's automation names only its brand's lists and campaigns: another brand's of the same workspace is refused on the field", async () => {
    const { a, sideBrand, sideTopic, ours, side } = await referenced();
    const locked = apiKeyActor({ keyId: "key_side", workspaceId: a.workspaceId, brandId: sideBrand, mode: "live" });
    const before = (await automationsOf(a.workspaceId)).length;
    await expect(
      createAutomation(ctx, locked, {
        name: "Refused",
        topic_id: sideTopic,
        trigger: "list_added",
        trigger_settings: { list_id: ours.list },
      }),
    ).rejects.toMatchObject({ code: "validation_failed", param: "trigger_settings.list_id" });
    await expect(
      createAutomation(ctx, locked, {
        name: "Refused",
        topic_id: sideTopic,
        trigger: "link_clicked",
        trigger_settings: { campaign_id: ours.campaign },
      }),
    ).rejects.toMatchObject({ code: "validation_failed", param: "trigger_settings.campaign_id" });
    expect(await automationsOf(a.workspaceId)).toHaveLength(before);
    const { automationId } = await createAutomation(ctx, locked, {
      name: "Side",
      topic_id: sideTopic,
      trigger: "list_added",
      trigger_settings: { list_id: side.list },
    });
    await expect(
      setAutomationSteps(ctx, locked, automationId, { steps: [{ type: "list_add", list_id: ours.list }] }),
    ).rejects.toMatchObject({ code: "validation_failed", param: "steps.0.list_id" });
    expect(
      await setAutomationSteps(ctx, locked, automationId, { steps: [{ type: "list_add", list_id: side.list }] }),
    ).toMatchObject({ version: 1 });
  });

  it("setAutomationSteps refuses steps naming another workspace's list or campaign, in list steps, branches and their conditions, or an attribute the workspace has not defined: validation_failed on the step's field, no new version", async () => {
    const { memberOfA, automationId, theirs, ours } = await referenced();
    const hello: AutomationStep = { type: "send", subject: "Hello", text: "Hi." };
    const cases: [AutomationStep[], string][] = [
      [[{ type: "list_add", list_id: theirs.list }], "steps.0.list_id"],
      [[hello, { type: "list_remove", list_id: theirs.list }], "steps.1.list_id"],
      [
        [
          hello,
          {
            type: "branch",
            condition: { kind: "event", name: "purchase" },
            yes: [{ type: "list_add", list_id: ours.list }],
            no: [{ type: "list_remove", list_id: theirs.list }],
          },
        ],
        "steps.3.list_id",
      ],
      [
        [
          {
            type: "branch",
            condition: segmentOf({ kind: "list", op: "not_in", listId: theirs.list }),
            yes: [hello],
            no: [],
          },
        ],
        "steps.0.condition.rule.groups.0.conditions.0.listId",
      ],
      [
        [
          hello,
          {
            type: "branch",
            condition: segmentOf({ kind: "engagement", op: "did", action: "clicked", campaignId: theirs.campaign }),
            yes: [],
            no: [hello],
          },
        ],
        "steps.1.condition.rule.groups.0.conditions.0.campaignId",
      ],
      [[hello, { type: "set_attribute", attribute: "tier", value: "gold" }], "steps.1.attribute"],
    ];
    for (const [steps, param] of cases)
      await expect(setAutomationSteps(ctx, memberOfA, automationId, { steps })).rejects.toMatchObject({
        type: "invalid_request_error",
        code: "validation_failed",
        param,
      });
    const versions = () =>
      ctx.db.select().from(automationVersions).where(eq(automationVersions.automationId, automationId));
    expect(await versions()).toHaveLength(1);
    expect(
      await setAutomationSteps(ctx, memberOfA, automationId, {
        steps: [
          {
            type: "branch",
            condition: segmentOf({ kind: "engagement", op: "did", action: "clicked", campaignId: ours.campaign }),
            yes: [{ type: "list_add", list_id: ours.list }],
            no: [],
          },
        ],
      }),
    ).toMatchObject({ version: 2 });
  });
});

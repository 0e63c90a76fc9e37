import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { apiKeyActor, userActor } from "@/lib/actor";
import { recordContactEvent } from "@/lib/contact-events/record-contact-event";
import { defineAttribute } from "@/lib/contacts/define-attribute";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { automationEntries, automations } from "@/lib/db/schema";
import { createList } from "@/lib/lists/create-list";
import { seedContactsWorkspace } from "@/lib/testing/contacts-workspace";
import { seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";
import { enteredContacts } from "@/lib/testing/trigger-fixture";

import type { AutomationStep } from "./automation-schemas";
import { activateAutomation, createAutomation, setAutomationSteps, updateAutomationSettings } from "./automations";
import { entryPosition } from "./run-entry";

const { ctx, clock } = testCtx(new Date());
const MINUTE = 60_000;

/** An active automation entered by the custom event `signed.up`: a wait of an hour, then a mail. */
async function onSignup(
  steps: AutomationStep[] = [
    { type: "wait", minutes: 60 },
    { type: "send", subject: "Hi", text: "Hello." },
  ],
) {
  const w = await seedContactsWorkspace(ctx);
  const { automationId } = await createAutomation(ctx, w.actor, {
    name: "After signup",
    topic_id: w.topicId,
    trigger: "event",
    trigger_settings: { name: "signed.up" },
  });
  await setAutomationSteps(ctx, w.actor, automationId, { steps });
  await activateAutomation(ctx, w.actor, automationId);
  const person = async (email: string) =>
    (await upsertContact(ctx, w.actor, { email, topicIds: [w.topicId] })).contact.id;
  const event = (contactId: string, name: string) =>
    recordContactEvent(ctx, w.actor, { contactId, name, properties: {} });
  return { w, automationId, person, event };
}

const stored = async (automationId: string) =>
  (await ctx.db.select().from(automations).where(eq(automations.id, automationId)))[0]!;

const entriesOf = (automationId: string, contactId: string) =>
  ctx.db
    .select()
    .from(automationEntries)
    .where(and(eq(automationEntries.automationId, automationId), eq(automationEntries.contactId, contactId)));

describe("an automation's trigger, re-entry and exit condition can be changed after it was made", () => {
  it("only what the change names changes; null clears re-entry or the exit condition", async () => {
    const { w, automationId } = await onSignup();
    const exit = { kind: "event" as const, name: "order.completed", within_minutes: null };
    expect(
      await updateAutomationSettings(ctx, w.actor, automationId, { reentry_after_minutes: 1440, exit_condition: exit }),
    ).toEqual({
      automationId,
      trigger: "event",
      trigger_settings: { name: "signed.up" },
      reentry_after_minutes: 1440,
      exit_condition: exit,
    });
    await updateAutomationSettings(ctx, w.actor, automationId, { trigger_settings: { name: "trial.started" } });
    expect(await stored(automationId)).toMatchObject({
      status: "active",
      trigger: "event",
      triggerSettings: { name: "trial.started" },
      reentryAfterMinutes: 1440,
      exitCondition: exit,
    });
    await updateAutomationSettings(ctx, w.actor, automationId, { reentry_after_minutes: null, exit_condition: null });
    expect(await stored(automationId)).toMatchObject({
      triggerSettings: { name: "trial.started" },
      reentryAfterMinutes: null,
      exitCondition: null,
    });
  });

  it("another trigger named without settings starts from none; the same trigger keeps its settings", async () => {
    const { w, automationId } = await onSignup();
    await updateAutomationSettings(ctx, w.actor, automationId, { trigger: "event" });
    expect((await stored(automationId)).triggerSettings).toEqual({ name: "signed.up" });
    await updateAutomationSettings(ctx, w.actor, automationId, { trigger: "topic_confirmed" });
    expect(await stored(automationId)).toMatchObject({ trigger: "topic_confirmed", triggerSettings: {} });
    // A date trigger's defaults are filled in as at creation.
    await defineAttribute(ctx, w.actor, { key: "renews_on", type: "date" });
    await updateAutomationSettings(ctx, w.actor, automationId, {
      trigger: "date_attribute",
      trigger_settings: { attribute: "renews_on" },
    });
    expect((await stored(automationId)).triggerSettings).toEqual({
      attribute: "renews_on",
      offset_days: 0,
      yearly: false,
    });
  });

  it("a change is checked with the rules of creation, refused beside its field, and changes nothing", async () => {
    const { w, automationId } = await onSignup();
    const before = await stored(automationId);
    const refusals: [Parameters<typeof updateAutomationSettings>[3], string][] = [
      [{ trigger: "list_added" }, "trigger_settings.list_id"],
      [{ trigger_settings: { name: "has spaces" } }, "trigger_settings.name"],
      [{ trigger_settings: { name: "ok", extra: 1 } }, "trigger_settings"],
      [{ reentry_after_minutes: -1 }, "reentry_after_minutes"],
      [{ reentry_after_minutes: 1.5 }, "reentry_after_minutes"],
      [{ exit_condition: { kind: "event", name: "" } as never }, "exit_condition.name"],
      [{ exit_condition: { kind: "nonsense" } as never }, "exit_condition.kind"],
      [{ name: "Renamed" } as never, "name"],
      [{}, "body"],
    ];
    for (const [changes, param] of refusals)
      await expect(updateAutomationSettings(ctx, w.actor, automationId, changes)).rejects.toMatchObject({
        code: "validation_failed",
        param,
      });
    expect(await stored(automationId)).toEqual(before);
  });

  it("a changed trigger or exit condition names only lists the actor reaches: another workspace's is refused beside its field", async () => {
    const { w, automationId } = await onSignup();
    const other = await seedContactsWorkspace(ctx);
    const { listId } = await createList(ctx, other.actor, { brandId: other.brandId, name: "Theirs" });
    const before = await stored(automationId);
    await expect(
      updateAutomationSettings(ctx, w.actor, automationId, {
        trigger: "list_added",
        trigger_settings: { list_id: listId },
      }),
    ).rejects.toMatchObject({ code: "validation_failed", param: "trigger_settings.list_id" });
    await expect(
      updateAutomationSettings(ctx, w.actor, automationId, {
        exit_condition: {
          kind: "segment",
          rule: { match: "all", groups: [{ match: "all", conditions: [{ kind: "list", op: "in", listId }] }] },
        },
      }),
    ).rejects.toMatchObject({ code: "validation_failed", param: "exit_condition.rule.groups.0.conditions.0.listId" });
    expect(await stored(automationId)).toEqual(before);
  });

  it("another workspace's member, or a key locked to another brand, is told the automation is not found, and nothing changes", async () => {
    const { w, automationId } = await onSignup();
    const before = await stored(automationId);
    const other = await seedWorkspace(ctx);
    const lockedElsewhere = apiKeyActor({
      keyId: "key_x",
      workspaceId: w.workspaceId,
      brandId: "br_other",
      mode: "live",
    });
    for (const actor of [userActor(other.ownerUserId, other.workspaceId), lockedElsewhere])
      await expect(
        updateAutomationSettings(ctx, actor, automationId, { reentry_after_minutes: 0 }),
      ).rejects.toMatchObject({ code: "automation_not_found", param: "automation_id" });
    expect(await stored(automationId)).toEqual(before);
  });
});

describe("what a change of settings means for the people it concerns", () => {
  it("a changed trigger enters people on occurrences from now on only; whoever is inside stays, and nothing earlier is replayed", async () => {
    const { automationId, person, event, w } = await onSignup();
    const inside = await person("inside@example.org");
    const early = await person("early@example.org");
    const later = await person("later@example.org");
    await event(inside, "signed.up");
    // Before the change, trial.started enters nobody; the change does not replay it.
    await event(early, "trial.started");
    await updateAutomationSettings(ctx, w.actor, automationId, { trigger_settings: { name: "trial.started" } });
    await event(later, "signed.up");
    expect(await enteredContacts(ctx, automationId)).toEqual([inside]);
    await event(later, "trial.started");
    expect(await enteredContacts(ctx, automationId)).toEqual([inside, later].sort());
    expect((await entriesOf(automationId, inside))[0]!.status).toBe("active");
  });

  it("a new exit condition ends the run of a person already inside at their next step boundary", async () => {
    const { automationId, person, event, w } = await onSignup();
    const ann = await person("ann@example.org");
    await event(ann, "signed.up");
    const [entry] = await entriesOf(automationId, ann);
    clock.advance(MINUTE);
    await event(ann, "order.completed");
    // No exit condition yet: the order changes nothing.
    expect(await entryPosition(ctx, entry!.id)).toEqual({ at: { index: 0, type: "wait", minutes: 60 } });
    await updateAutomationSettings(ctx, w.actor, automationId, {
      exit_condition: { kind: "event", name: "order.completed" },
    });
    expect(await entryPosition(ctx, entry!.id)).toEqual({ exited: "exit_condition" });
    expect((await entriesOf(automationId, ann))[0]).toMatchObject({ status: "exited", exitReason: "exit_condition" });
  });

  it("an exit condition cleared lets those inside go on, and lets nobody who left by it back in", async () => {
    const { automationId, person, event, w } = await onSignup();
    await updateAutomationSettings(ctx, w.actor, automationId, {
      exit_condition: { kind: "event", name: "order.completed" },
    });
    const left = await person("left@example.org");
    const stays = await person("stays@example.org");
    for (const contactId of [left, stays]) await event(contactId, "signed.up");
    clock.advance(MINUTE);
    await event(left, "order.completed");
    const [leftEntry] = await entriesOf(automationId, left);
    expect(await entryPosition(ctx, leftEntry!.id)).toEqual({ exited: "exit_condition" });
    await updateAutomationSettings(ctx, w.actor, automationId, { exit_condition: null });
    await event(stays, "order.completed");
    const [staysEntry] = await entriesOf(automationId, stays);
    expect(await entryPosition(ctx, staysEntry!.id)).toMatchObject({ at: { index: 0 } });
    expect(await entryPosition(ctx, leftEntry!.id)).toEqual({ ended: true });
  });

  it("a re-entry rule set afterwards applies to the next trigger, counted from the end of the person's last entry", async () => {
    const { automationId, person, event, w } = await onSignup();
    const ann = await person("ann@example.org");
    await event(ann, "signed.up");
    await ctx.db
      .update(automationEntries)
      .set({ status: "completed", endedAt: clock.now() })
      .where(eq(automationEntries.contactId, ann));
    clock.advance(10 * MINUTE);
    // Made to enter once: the second signup enters nobody.
    await event(ann, "signed.up");
    expect(await entriesOf(automationId, ann)).toHaveLength(1);
    await updateAutomationSettings(ctx, w.actor, automationId, { reentry_after_minutes: 30 });
    await event(ann, "signed.up");
    expect(await entriesOf(automationId, ann)).toHaveLength(1);
    clock.advance(21 * MINUTE);
    await event(ann, "signed.up");
    expect(await entriesOf(automationId, ann)).toHaveLength(2);
  });
});

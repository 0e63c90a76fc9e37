import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { functions } from "@/inngest";
import { inngest, routeEmbeddedEvents } from "@/inngest/client";
import { createEmbeddedExecutor } from "@/inngest/embedded/executor";
import { setWorkflowCtx } from "@/inngest/workflow-ctx";
import { apiKeyActor, systemActor } from "@/lib/actor";
import type { AutomationCondition, AutomationStep, CreateAutomationInput } from "@/lib/automations/automation-schemas";
import {
  activateAutomation,
  createAutomation,
  pauseAutomation,
  resumeAutomation,
  setAutomationSteps,
  showAutomation,
} from "@/lib/automations/automations";
import { contactAutomations } from "@/lib/automations/contact-automations";
import { enterAutomations } from "@/lib/automations/enter-automation";
import { activeEntriesByVersion, moveEntriesToLatest } from "@/lib/automations/move-entries";
import { resumeWorkspaceSending } from "@/lib/billing/resume-workspace-sending";
import { createBrand } from "@/lib/brands/create-brand";
import { recordContactEvent } from "@/lib/contact-events/record-contact-event";
import { defineAttribute } from "@/lib/contacts/define-attribute";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { automationEntries, automationSends, contacts, events, listMembers, workspaceBilling } from "@/lib/db/schema";
import { recordProviderEvent } from "@/lib/deliverability/record-provider-event";
import { createList } from "@/lib/lists/create-list";
import { listMailbox } from "@/lib/mail/list-mailbox";
import { clearForSending } from "@/lib/testing/clear-for-sending";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";
import { recordClick, recordOpen } from "@/lib/tracking/record-engagement";
import { readClickToken } from "@/lib/tracking/tracking-links";

// The step vocabulary of an automation's run (docs/readings.md, "Automations", "The run"), driven by
// the embedded executor and a test clock, as automation-entry.test.ts does.
const { ctx, clock } = testCtx(new Date(Date.now() + 60 * 60_000));
const executor = createEmbeddedExecutor({ client: inngest, functions });
beforeAll(async () => {
  setWorkflowCtx(ctx);
  routeEmbeddedEvents((batch) => executor.enqueue(ctx, batch));
});
afterAll(() => setWorkflowCtx(undefined));

const MINUTE = 60_000;

/** A workspace with a topic; `automation` adds an active automation of these steps and a way to put people in it. */
async function workspace() {
  const { workspaceId, brandId } = await seedWorkspace(ctx);
  await clearForSending(ctx, workspaceId);
  const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
  const actor = systemActor("test", workspaceId);
  const mailsTo = async (email: string) =>
    (await listMailbox(ctx, actor, { to: email })).filter((m) => m.subject.startsWith("Step")).reverse();
  const subjectsTo = async (email: string) => (await mailsTo(email)).map((m) => m.subject);
  const automation = async (steps: AutomationStep[], options: Partial<CreateAutomationInput> = {}) => {
    const { automationId } = await createAutomation(ctx, actor, { name: "Series", topic_id: topicId, ...options });
    await setAutomationSteps(ctx, actor, automationId, { steps });
    await activateAutomation(ctx, actor, automationId);
    /** A subscribed contact (made once), entered into the automation; answers the contact's id. */
    const enter = async (email: string, fields: { firstName?: string; timeZone?: string } = {}) => {
      const { contact } = await upsertContact(ctx, actor, { email, ...fields, topicIds: [topicId] });
      await enterAutomations(ctx, workspaceId, { topicId, contactId: contact.id, trigger: "topic_confirmed" });
      return contact.id;
    };
    const entries = () =>
      ctx.db.select().from(automationEntries).where(eq(automationEntries.automationId, automationId));
    return { automationId, enter, entries };
  };
  return { workspaceId, brandId, topicId, actor, mailsTo, subjectsTo, automation };
}

const send = (subject: string, html?: string): AutomationStep =>
  html ? { type: "send", subject, html } : { type: "send", subject, text: `${subject}.` };
const firstNameIs = (value: string): AutomationCondition => ({
  kind: "segment",
  rule: {
    match: "all",
    groups: [{ match: "all", conditions: [{ kind: "field", field: "first_name", op: "equals", value }] }],
  },
});

describe("automations: the step vocabulary", () => {
  it("list_add, set_attribute and list_remove change the contact, and the run goes on to the next step; the attribute change enters an automation watching it", async () => {
    const { workspaceId, brandId, actor, automation, subjectsTo } = await workspace();
    const { listId: joined } = await createList(ctx, actor, { brandId, name: "Joined" });
    const { listId: leaving } = await createList(ctx, actor, { brandId, name: "Leaving" });
    await defineAttribute(ctx, actor, { key: "plan", type: "string" });
    const { enter, entries } = await automation([
      { type: "list_add", list_id: joined },
      { type: "set_attribute", attribute: "plan", value: "gold" },
      { type: "list_remove", list_id: leaving },
      send("Step after the changes"),
    ]);
    const watcher = await automation([send("Step upgraded")], {
      trigger: "attribute_changed",
      trigger_settings: { attribute: "plan", to: "gold" },
    });
    const { contact } = await upsertContact(ctx, actor, { email: "lists@example.com" });
    await ctx.db
      .insert(listMembers)
      .values({ listId: leaving, contactId: contact.id, workspaceId, addedAt: clock.now() });
    const contactId = await enter("lists@example.com");
    await executor.runDue(ctx);
    const member = await ctx.db
      .select({ listId: listMembers.listId })
      .from(listMembers)
      .where(eq(listMembers.contactId, contactId));
    expect(member.map((m) => m.listId)).toEqual([joined]);
    const [row] = await ctx.db
      .select({ attributes: contacts.attributes })
      .from(contacts)
      .where(eq(contacts.id, contactId));
    expect(row!.attributes).toMatchObject({ plan: "gold" });
    expect((await entries())[0]).toMatchObject({ status: "completed", stepIndex: 4 });
    await executor.runDue(ctx);
    expect((await watcher.entries()).map((e) => e.contactId)).toEqual([contactId]);
    expect((await subjectsTo("lists@example.com")).sort()).toEqual(["Step after the changes", "Step upgraded"]);
  });

  it("a branch sends the person down yes when its condition holds and down no otherwise, then on after the branch; the figures count each arm", async () => {
    const { actor, automation, subjectsTo } = await workspace();
    const { automationId, enter } = await automation([
      {
        type: "branch",
        condition: firstNameIs("Ann"),
        yes: [send("Step yes")],
        no: [send("Step no 1"), send("Step no 2")],
      },
      send("Step after"),
    ]);
    await enter("ann@example.com", { firstName: "Ann" });
    await enter("bob@example.com", { firstName: "Bob" });
    await executor.runDue(ctx);
    expect(await subjectsTo("ann@example.com")).toEqual(["Step yes", "Step after"]);
    expect(await subjectsTo("bob@example.com")).toEqual(["Step no 1", "Step no 2", "Step after"]);
    const shown = await showAutomation(ctx, actor, automationId);
    expect(shown.steps.map((s) => s.type)).toEqual(["branch", "send", "send", "send", "send"]);
    expect(shown.steps[0]).toMatchObject({ arms: { yes: 1, no: 1 } });
    expect(shown.steps.map((s) => s.sent ?? null)).toEqual([null, 1, 1, 1, 2]);
  });

  it("an exit step ends the entry as exit_step; no later step runs", async () => {
    const { actor, automation, subjectsTo } = await workspace();
    const { automationId, enter, entries } = await automation([send("Step one"), { type: "exit" }, send("Step never")]);
    await enter("exit@example.com");
    await executor.runDue(ctx);
    expect(await subjectsTo("exit@example.com")).toEqual(["Step one"]);
    expect((await entries())[0]).toMatchObject({ status: "exited", exitReason: "exit_step", stepIndex: 1 });
    expect((await showAutomation(ctx, actor, automationId)).exited).toEqual({ exit_step: 1 });
  });

  it("when the exit condition holds the run ends at its next step boundary as exit_condition, whatever that step is", async () => {
    const { automation, subjectsTo } = await workspace();
    const { enter, entries } = await automation(
      [send("Step one"), { type: "wait", minutes: 60 }, { type: "wait", minutes: 60 }, send("Step two")],
      { exit_condition: firstNameIs("Bought") },
    );
    const contactId = await enter("exitcond@example.com", { firstName: "Browsing" });
    await executor.runDue(ctx);
    await ctx.db.update(contacts).set({ firstName: "Bought" }).where(eq(contacts.id, contactId));
    // The first wait over: the second wait is not begun.
    clock.advance(60 * MINUTE);
    await executor.runDue(ctx);
    expect((await entries())[0]).toMatchObject({ status: "exited", exitReason: "exit_condition", stepIndex: 2 });
    clock.advance(60 * MINUTE);
    await executor.runDue(ctx);
    expect(await subjectsTo("exitcond@example.com")).toEqual(["Step one"]);
  });

  it("the exit condition is checked again at a send held by a pause", async () => {
    const { actor, automation, subjectsTo } = await workspace();
    const { automationId, enter, entries } = await automation([send("Step held")], {
      exit_condition: firstNameIs("Bought"),
    });
    const contactId = await enter("held-exit@example.com", { firstName: "Browsing" });
    await pauseAutomation(ctx, actor, automationId);
    await executor.runDue(ctx);
    expect((await entries())[0]).toMatchObject({ status: "active", stepIndex: 0 });
    await ctx.db.update(contacts).set({ firstName: "Bought" }).where(eq(contacts.id, contactId));
    await resumeAutomation(ctx, actor, automationId);
    await executor.runDue(ctx);
    expect(await subjectsTo("held-exit@example.com")).toEqual([]);
    expect((await entries())[0]).toMatchObject({ status: "exited", exitReason: "exit_condition", stepIndex: 0 });
  });

  it("wait_until wakes the run at the next chosen weekday and hour in the contact's time zone, not before", async () => {
    const { automation, mailsTo } = await workspace();
    const { enter } = await automation([
      { type: "wait_until", weekdays: [1], hour: 9, minute: 30 },
      send("Step Monday"),
    ]);
    const zone = "America/New_York";
    // The oracle: minute by minute from now, the first minute New York's clocks read Monday 09:30.
    const read = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      weekday: "short",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    let due = Math.ceil((clock.now().getTime() + 1) / MINUTE) * MINUTE;
    while (read.format(new Date(due)) !== "Mon 09:30") due += MINUTE;
    await enter("monday@example.com", { timeZone: zone });
    await executor.runDue(ctx);
    clock.set(new Date(due - MINUTE));
    await executor.runDue(ctx);
    expect(await mailsTo("monday@example.com")).toEqual([]);
    clock.set(new Date(due));
    await executor.runDue(ctx);
    const mails = await mailsTo("monday@example.com");
    expect(mails.map((m) => m.subject)).toEqual(["Step Monday"]);
    expect(read.format(mails[0]!.sentAt)).toBe("Mon 09:30");
  });

  it("wait_for_event goes on when the contact's event arrives, and a branch on that event then holds", async () => {
    const { workspaceId, automation, subjectsTo } = await workspace();
    const { enter } = await automation([
      { type: "wait_for_event", name: "purchase", timeout_minutes: 24 * 60 },
      {
        type: "branch",
        condition: { kind: "event", name: "purchase" },
        yes: [send("Step thanks")],
        no: [send("Step reminder")],
      },
    ]);
    const contactId = await enter("buyer@example.com");
    await executor.runDue(ctx);
    clock.advance(10 * MINUTE);
    await executor.runDue(ctx);
    expect(await subjectsTo("buyer@example.com")).toEqual([]);
    // What POST /v1/events does: the row, and the event the waiting run matches on `key`.
    await recordContactEvent(ctx, systemActor("test", workspaceId), { contactId, name: "purchase", properties: {} });
    await executor.runDue(ctx);
    expect(await subjectsTo("buyer@example.com")).toEqual(["Step thanks"]);
  });

  it("wait_for_event goes on after its timeout without the event, and another contact's event does not wake it", async () => {
    const { workspaceId, automation, subjectsTo } = await workspace();
    const { enter } = await automation([
      { type: "wait_for_event", name: "purchase", timeout_minutes: 60 },
      {
        type: "branch",
        condition: { kind: "event", name: "purchase" },
        yes: [send("Step thanks")],
        no: [send("Step reminder")],
      },
    ]);
    await enter("waits@example.com");
    const other = await enter("other@example.com");
    await executor.runDue(ctx);
    await recordContactEvent(ctx, systemActor("test", workspaceId), {
      contactId: other,
      name: "purchase",
      properties: {},
    });
    await executor.runDue(ctx);
    clock.advance(59 * MINUTE);
    await executor.runDue(ctx);
    expect(await subjectsTo("waits@example.com")).toEqual([]);
    clock.advance(MINUTE);
    await executor.runDue(ctx);
    expect(await subjectsTo("waits@example.com")).toEqual(["Step reminder"]);
  });

  it("a brand-locked key's event wakes only its brand's automations' waits for the contact; an unlocked key's wakes every brand's", async () => {
    const { workspaceId, topicId, actor } = await workspace();
    const { brandId: otherBrand } = await createBrand(ctx, actor, {
      name: "O",
      legalName: "O Ltd",
      postalAddress: "5 Ave",
      websiteUrl: "https://o.test",
      senderEmail: "o@o.test",
    });
    const otherTopic = await seedTopic(ctx, workspaceId, otherBrand, { requiresConfirmation: false });
    const { contact } = await upsertContact(ctx, actor, { email: "both@example.com", topicIds: [topicId, otherTopic] });
    // Each automation waits for the same contact's `purchase`, then ends at an exit step: an entry still
    // active is a wait the event did not wake.
    const waitingIn = async (topic: string) => {
      const { automationId } = await createAutomation(ctx, actor, { name: "Waits", topic_id: topic });
      await setAutomationSteps(ctx, actor, automationId, {
        steps: [{ type: "wait_for_event", name: "purchase", timeout_minutes: 24 * 60 }, { type: "exit" }],
      });
      await activateAutomation(ctx, actor, automationId);
      return automationId;
    };
    const ours = await waitingIn(topicId);
    const theirs = await waitingIn(otherTopic);
    const statusIn = async (automationId: string) =>
      (
        await ctx.db
          .select({ status: automationEntries.status })
          .from(automationEntries)
          .where(eq(automationEntries.automationId, automationId))
      ).map((e) => e.status);
    for (const topic of [topicId, otherTopic])
      await enterAutomations(ctx, workspaceId, { topicId: topic, contactId: contact.id, trigger: "topic_confirmed" });
    await executor.runDue(ctx);
    const lockedToOther = apiKeyActor({ keyId: "key_locked", workspaceId, brandId: otherBrand, mode: "live" });
    await recordContactEvent(ctx, lockedToOther, { contactId: contact.id, name: "purchase", properties: {} });
    await executor.runDue(ctx);
    expect(await statusIn(theirs)).toEqual(["exited"]);
    expect(await statusIn(ours)).toEqual(["active"]);

    const again = await waitingIn(otherTopic);
    await enterAutomations(ctx, workspaceId, {
      topicId: otherTopic,
      contactId: contact.id,
      trigger: "topic_confirmed",
    });
    await executor.runDue(ctx);
    await recordContactEvent(ctx, actor, { contactId: contact.id, name: "purchase", properties: {} });
    await executor.runDue(ctx);
    expect(await statusIn(ours)).toEqual(["exited"]);
    expect(await statusIn(again)).toEqual(["exited"]);
  });

  it("a person's click on an automation mail makes `clicked` and `opened` hold, and is an email.clicked event carrying the automation and step", async () => {
    const { workspaceId, automation, mailsTo, subjectsTo } = await workspace();
    const { automationId, enter } = await automation([
      send("Step offer", '<p><a href="https://shop.example.com/offer">See the offer</a></p>'),
      { type: "wait", minutes: 60 },
      {
        type: "branch",
        condition: { kind: "clicked", step: 0 },
        yes: [send("Step clicked")],
        no: [send("Step not clicked")],
      },
      { type: "branch", condition: { kind: "opened", step: 0 }, yes: [send("Step opened")], no: [] },
    ]);
    await enter("clicker@example.com");
    await enter("idle@example.com");
    await executor.runDue(ctx);
    const [offer] = await mailsTo("clicker@example.com");
    const token = offer!.links.find((l) => l.includes("/t/c/"))!.split("/t/c/")[1]!;
    const click = readClickToken(token)!;
    expect(click.url).toBe("https://shop.example.com/offer");
    await recordClick(ctx, click.sendId, { url: click.url, country: null, deviceType: null, client: null });
    clock.advance(60 * MINUTE);
    await executor.runDue(ctx);
    expect(await subjectsTo("clicker@example.com")).toEqual(["Step offer", "Step clicked", "Step opened"]);
    expect(await subjectsTo("idle@example.com")).toEqual(["Step offer", "Step not clicked"]);
    const [event] = await ctx.db
      .select({ data: events.data })
      .from(events)
      .where(and(eq(events.workspaceId, workspaceId), eq(events.type, "email.clicked")));
    expect(event!.data).toMatchObject({
      send_id: click.sendId,
      campaign_id: null,
      automation_id: automationId,
      step: 0,
    });
  });

  it("a person's open or click of an automation mail makes the contact engaged for the sunset of inactive contacts, as a campaign's does; Apple's privacy proxy's open does not", async () => {
    const { automation, mailsTo } = await workspace();
    const { enter } = await automation([
      send("Step offer", '<p><a href="https://shop.example.com/offer">Offer</a></p>'),
    ]);
    const opener = await enter("opener@example.com");
    const clicker = await enter("clicker-engaged@example.com");
    const proxied = await enter("proxied@example.com");
    await executor.runDue(ctx);
    const sendIdOf = async (email: string) => {
      const [mail] = await mailsTo(email);
      const token = mail!.links.find((l) => l.includes("/t/c/"))!.split("/t/c/")[1]!;
      return readClickToken(token)!;
    };
    // Each already reached by campaigns, and not engaged since: what the sunset would count.
    for (const contactId of [opener, clicker, proxied])
      await ctx.db.execute(sql`
        insert into contact_engagement (contact_id, workspace_id, campaigns_since_engaged, unengaged_since)
        select id, workspace_id, 3, ${new Date(clock.now().getTime() - 90 * 24 * 60 * MINUTE).toISOString()}::timestamptz
        from contacts where id = ${contactId}`);
    await recordOpen(ctx, (await sendIdOf("opener@example.com")).sendId, { country: null });
    const click = await sendIdOf("clicker-engaged@example.com");
    await recordClick(ctx, click.sendId, { url: click.url, country: null, deviceType: null, client: null });
    await recordOpen(ctx, (await sendIdOf("proxied@example.com")).sendId, {
      country: null,
      request: { userAgent: "Mozilla/5.0", ip: "17.58.0.1" },
    });
    const engagement = async (contactId: string) =>
      (
        await ctx.db.execute<{ last: string | null; since: number; unengaged: string | null }>(sql`
          select last_engaged_at as last, campaigns_since_engaged as since, unengaged_since as unengaged
          from contact_engagement where contact_id = ${contactId}`)
      )[0]!;
    for (const engaged of [opener, clicker])
      expect(await engagement(engaged)).toEqual({ last: expect.anything(), since: 0, unengaged: null });
    expect(await engagement(proxied)).toMatchObject({ last: null, since: 3 });
  });

  it("a provider's reports of an automation mail are email.delivered and email.bounced events carrying the automation and step; a hard bounce suppresses, and the run exits at its next mail", async () => {
    const { workspaceId, automation, subjectsTo } = await workspace();
    const { automationId, enter, entries } = await automation([
      send("Step first"),
      { type: "wait", minutes: 60 },
      send("Step second"),
    ]);
    await enter("reported@example.com");
    await executor.runDue(ctx);
    const [mail] = await ctx.db.select().from(automationSends).where(eq(automationSends.automationId, automationId));
    // Found by the provider's id (as Resend reports), then by the send id a bounce's signed return path carries.
    expect(mail!.providerMessageId).toEqual(expect.any(String));
    const at = clock.now();
    expect(
      await recordProviderEvent(ctx, {
        type: "delivered",
        providerMessageId: mail!.providerMessageId!,
        occurredAt: at,
      }),
    ).toMatchObject({ matched: true });
    expect(
      await recordProviderEvent(ctx, { type: "bounced", bounceType: "permanent", sendId: mail!.id, occurredAt: at }),
    ).toMatchObject({ matched: true, suppressed: true });
    const reported = await ctx.db
      .select({ type: events.type, data: events.data })
      .from(events)
      .where(and(eq(events.workspaceId, workspaceId), sql`${events.type} in ('email.delivered', 'email.bounced')`));
    expect(reported.map((e) => e.type).sort()).toEqual(["email.bounced", "email.delivered"]);
    for (const event of reported)
      expect(event.data).toMatchObject({ send_id: mail!.id, automation_id: automationId, step: 0, campaign_id: null });
    clock.advance(60 * MINUTE);
    await executor.runDue(ctx);
    expect(await subjectsTo("reported@example.com")).toEqual(["Step first"]);
    expect((await entries())[0]).toMatchObject({ status: "exited", exitReason: "suppressed" });
  });

  it("re-entry: refused when the automation does not allow it; allowed once the last entry ended the set minutes ago, never while one is active", async () => {
    const { workspaceId, topicId, automation } = await workspace();
    const once = await automation([send("Step once")]);
    const again = await automation([{ type: "wait", minutes: 30 }, send("Step again")], { reentry_after_minutes: 60 });
    const contactId = await once.enter("reenter@example.com");
    await executor.runDue(ctx);
    const enterBoth = () => enterAutomations(ctx, workspaceId, { topicId, contactId, trigger: "topic_confirmed" });
    // Inside `again` now (entered with `once`): active, so not again.
    expect((await enterBoth()).entryIds).toEqual([]);
    clock.advance(30 * MINUTE);
    await executor.runDue(ctx);
    expect((await again.entries())[0]).toMatchObject({ status: "completed" });
    clock.advance(59 * MINUTE);
    expect((await enterBoth()).entryIds).toEqual([]);
    clock.advance(MINUTE);
    expect((await enterBoth()).entryIds).toHaveLength(1);
    expect(await once.entries()).toHaveLength(1);
    expect(await again.entries()).toHaveLength(2);
  });

  it("moving people to the newest version: each goes on from the same step number there, and no step's mail reaches them twice", async () => {
    const { actor, automation, subjectsTo } = await workspace();
    const { automationId, enter, entries } = await automation([
      send("Step A v1"),
      { type: "wait", minutes: 60 },
      send("Step B v1"),
    ]);
    await enter("mover@example.com");
    await executor.runDue(ctx);
    await setAutomationSteps(ctx, actor, automationId, {
      steps: [send("Step A v2"), { type: "wait", minutes: 30 }, send("Step B v2"), send("Step C v2")],
    });
    expect((await activeEntriesByVersion(ctx, actor, automationId)).map((v) => [v.version, v.active])).toEqual([
      [2, 0],
      [1, 1],
    ]);
    expect(await moveEntriesToLatest(ctx, actor, automationId)).toEqual({ moved: 1, version: 2 });
    expect((await activeEntriesByVersion(ctx, actor, automationId)).map((v) => [v.version, v.active])).toEqual([
      [2, 1],
      [1, 0],
    ]);
    // Moving again moves nobody; the run wakes at the end of the wait it was in and goes on in version 2.
    expect((await moveEntriesToLatest(ctx, actor, automationId)).moved).toBe(0);
    clock.advance(60 * MINUTE);
    await executor.runDue(ctx);
    expect(await subjectsTo("mover@example.com")).toEqual(["Step A v1", "Step B v2", "Step C v2"]);
    expect((await entries())[0]).toMatchObject({ status: "completed", stepIndex: 4 });
  });

  it("a contact's position shows each automation they are in: its version, step and status, and since when", async () => {
    const { actor, automation } = await workspace();
    const { automationId, enter } = await automation([
      send("Step one"),
      { type: "wait", minutes: 60 },
      send("Step two"),
    ]);
    const contactId = await enter("position@example.com");
    await executor.runDue(ctx);
    expect(await contactAutomations(ctx, actor, contactId)).toEqual([
      expect.objectContaining({
        automationId,
        automationName: "Series",
        version: 1,
        step: 1,
        stepType: "wait",
        status: "active",
        since: expect.any(Date),
      }),
    ]);
    clock.advance(60 * MINUTE);
    await executor.runDue(ctx);
    expect(await contactAutomations(ctx, actor, contactId)).toEqual([
      expect.objectContaining({ automationId, step: null, status: "completed" }),
    ]);
    // Another workspace's actor sees none of it.
    const stranger = await workspace();
    expect(await contactAutomations(ctx, stranger.actor, contactId)).toEqual([]);
  });

  it("automation mail counts against the send allowance; at the limit the run is held at its send, and goes on when sending resumes", async () => {
    const { workspaceId, automation, subjectsTo } = await workspace();
    const { enter, entries } = await automation([send("Step counted")]);
    await ctx.db
      .update(workspaceBilling)
      .set({ stage: "active", sendAllowance: 1, sendsUsed: 1 })
      .where(eq(workspaceBilling.workspaceId, workspaceId));
    await enter("allowance@example.com");
    await executor.runDue(ctx);
    expect(await subjectsTo("allowance@example.com")).toEqual([]);
    expect((await entries())[0]).toMatchObject({ status: "active", stepIndex: 0 });
    await ctx.db
      .update(workspaceBilling)
      .set({ sendAllowance: 2 })
      .where(eq(workspaceBilling.workspaceId, workspaceId));
    await resumeWorkspaceSending(ctx, workspaceId);
    await executor.runDue(ctx);
    expect(await subjectsTo("allowance@example.com")).toEqual(["Step counted"]);
    const [billing] = await ctx.db
      .select({ used: workspaceBilling.sendsUsed })
      .from(workspaceBilling)
      .where(eq(workspaceBilling.workspaceId, workspaceId));
    expect(billing!.used).toBe(2);
  });
});

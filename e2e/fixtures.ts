import { test as base } from "@playwright/test";
import { sql } from "drizzle-orm";

import { connectWorkflowEvents } from "@/inngest/emit";
import { systemActor } from "@/lib/actor";
import { createApiKey } from "@/lib/api-keys/create-api-key";
import { advanceLadder, finishDeletion } from "@/lib/billing/advance-ladder";
import { deleteNextChunk } from "@/lib/billing/delete-workspace-data";
import { issueInvoice, recordPaymentFailed } from "@/lib/billing/invoices";
import { getBillingEpisode } from "@/lib/billing/ladder-episodes";
import { DAY_MS } from "@/lib/billing/plan-defaults";
import type { CreateBrandInput } from "@/lib/brands/brand-schemas";
import { createBrand } from "@/lib/brands/create-brand";
import { createCampaign } from "@/lib/campaigns/save-campaign";
import { fixedClock } from "@/lib/clock";
import type { DefineAttributeInput } from "@/lib/contacts/attribute-schemas";
import { defineAttribute } from "@/lib/contacts/define-attribute";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { defaultCtx, type Ctx } from "@/lib/context";
import { closeDb } from "@/lib/db/client";
import { openDatabase } from "@/lib/db/database";
import { createList } from "@/lib/lists/create-list";
import { listMailbox, type MailboxMessage } from "@/lib/mail/list-mailbox";
import { grantOperator } from "@/lib/operator/grant-operator";
import { clearForSending } from "@/lib/testing/clear-for-sending";
import { optOut } from "@/lib/testing/factories";
import { createTopic } from "@/lib/topics/create-topic";
import { createUser } from "@/lib/users/create-user";
import { createWorkspace } from "@/lib/workspaces/create-workspace";

/**
 * What a test needs in place before it drives the browser, written through the
 * same `lib/` functions as the API and the admin CLI, in the test's own
 * process: no process per row, nothing the app would not have made itself.
 */
export interface Seed {
  workspace(name: string, ownerEmail: string): Promise<string>;
  /** A password for a user the workspace made (its owner) or a new user, optionally a member of a workspace. */
  user(email: string, password: string, workspaceId?: string): Promise<string>;
  /** A brand with a complete identity (made up from its name unless given), in review. */
  brand(workspaceId: string, name: string, identity?: Partial<CreateBrandInput>): Promise<string>;
  topic(workspaceId: string, brandId: string, name: string, options?: { confirmation?: boolean }): Promise<string>;
  list(workspaceId: string, brandId: string, name: string): Promise<string>;
  /** A draft campaign to the topic's subscribers. */
  campaign(workspaceId: string, input: { brandId: string; topicId: string; name: string }): Promise<string>;
  /** A contact as the API adds one: subscribed at once to the topics given, the caller asserting consent. */
  contact(
    workspaceId: string,
    email: string,
    fields?: {
      firstName?: string;
      lastName?: string;
      topicIds?: string[];
      attributes?: Record<string, string | number | boolean>;
      /** An IANA time zone, as the signup form or the API gives one. */
      timeZone?: string;
    },
  ): Promise<string>;
  /** The person opted out of everything (as from a link in mail). */
  optOut(contactId: string): Promise<void>;
  /** A custom attribute defined on the workspace, as its screen defines one. */
  attribute(workspaceId: string, key: string, type: DefineAttributeInput["type"]): Promise<void>;
  /** A user who is one of the service's operators (reviews at /operator), a member of the workspace given. */
  operator(email: string, password: string, workspaceId: string): Promise<string>;
  /** Out of the sandbox: the review passed, its brands approved and their domains ready; it mails anyone. */
  approve(workspaceId: string): Promise<void>;
  key(workspaceId: string, kind: "secret" | "publishable", options?: { origins?: string[] }): Promise<string>;
  /** The test mailbox's messages to one address, newest first. */
  mailTo(address: string): Promise<MailboxMessage[]>;
  /**
   * A payment that failed `daysAgo` days ago, and the ladder's steps since taken as its run would
   * have taken them (with the ladder's own functions, on a clock set back): overdue, then read-only
   * after a week, deletion scheduled after 67 days, deleted after 97.
   */
  unpaidSince(workspaceId: string, daysAgo: number): Promise<void>;
  /**
   * The clock moved past a campaign's A/B test wait: its winner's workflow, asleep until the wait
   * ends, is due now (its sleep is memoised as done, as when the time comes) and picks the winner.
   */
  pastAbTestWait(campaignId: string): Promise<void>;
  /**
   * The clock moved past every wait of an automation's runs: each run of its entries asleep in a
   * wait (or waiting for an event) is due now, as when its time comes. Returns how many it woke.
   */
  pastAutomationWaits(automationId: string): Promise<number>;
}

function seedOf(ctx: Ctx): Seed {
  const as = (workspaceId: string) => systemActor("e2e-seed", workspaceId);
  return {
    workspace: async (name, ownerEmail) => (await createWorkspace(ctx, { name, ownerEmail })).workspaceId,
    user: async (email, password, workspaceId) => (await createUser(ctx, { email, password, workspaceId })).userId,
    brand: async (workspaceId, name, identity = {}) => {
      const domain = `${name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}.example`;
      const values = {
        name,
        legalName: `${name} Ltd`,
        postalAddress: "1 Test Street, Springfield",
        websiteUrl: `https://${domain}`,
        senderEmail: `news@${domain}`,
        ...identity,
      };
      return (await createBrand(ctx, as(workspaceId), values)).brandId;
    },
    topic: async (workspaceId, brandId, name, options = {}) =>
      (await createTopic(ctx, as(workspaceId), { brandId, name, requiresConfirmation: options.confirmation ?? true }))
        .topicId,
    list: async (workspaceId, brandId, name) => (await createList(ctx, as(workspaceId), { brandId, name })).listId,
    campaign: async (workspaceId, input) =>
      (await createCampaign(ctx, as(workspaceId), { ...input, subject: input.name, html: `<p>${input.name}</p>` }))
        .campaignId,
    contact: async (workspaceId, email, fields = {}) =>
      (await upsertContact(ctx, as(workspaceId), { email, ...fields })).contact.id,
    optOut: (contactId) => optOut(ctx, contactId, "all"),
    attribute: async (workspaceId, key, type) => void (await defineAttribute(ctx, as(workspaceId), { key, type })),
    operator: async (email, password, workspaceId) => {
      const { userId } = await createUser(ctx, { email, password, workspaceId });
      await grantOperator(ctx, email);
      return userId;
    },
    approve: async (workspaceId) => {
      await clearForSending(ctx, workspaceId);
    },
    key: async (workspaceId, kind, options = {}) =>
      (await createApiKey(ctx, as(workspaceId), { kind, environment: "live", origins: options.origins ?? [] })).key,
    mailTo: (address) => listMailbox(ctx, systemActor("e2e-seed"), { to: address }),
    pastAbTestWait: async (campaignId) => {
      await ctx.db.execute(sql`
        update workflow_runs set wake_at = now()
        where function_id like '%ab-test-winner' and status = 'pending' and event->'data'->>'campaignId' = ${campaignId}`);
    },
    pastAutomationWaits: async (automationId) => {
      const woken = await ctx.db.execute(sql`
        update workflow_runs set wake_at = now()
        where function_id like '%automation-entry' and status = 'pending' and wake_at > now()
          and event->'data'->>'entryId' in (select id from automation_entries where automation_id = ${automationId})
        returning id`);
      return woken.length;
    },
    unpaidSince: async (workspaceId, daysAgo) => {
      // One transaction: the app's own ladder run cannot see the episode (and take its steps on today's date) before these are taken.
      await ctx.db.transaction(async (db) => {
        const start = Date.now() - daysAgo * DAY_MS;
        const at = (day: number) => ({ ...ctx, db, clock: fixedClock(new Date(start + day * DAY_MS)) });
        await recordPaymentFailed(at(0), (await issueInvoice(at(0), { workspaceId, amount: 7900 })).id);
        const { ladderEpisodeId } = (await getBillingEpisode(at(0), workspaceId))!;
        // Each stage on its date, as the run would have taken it: overdue, read-only at 7, deletion scheduled at 67, deleted at 97.
        for (const day of [0, 7, 67, 97].filter((day) => day <= daysAgo)) {
          if ("deleteData" in (await advanceLadder(at(day), workspaceId, ladderEpisodeId!))) {
            while (await deleteNextChunk(at(daysAgo), workspaceId));
            await finishDeletion(at(daysAgo), workspaceId, ladderEpisodeId!);
          }
        }
      });
    },
  };
}

/** `test` with `seed`: one connection to the app's database per worker (the embedded server is joined, never stopped). */
export const test = base.extend<object, { seed: Seed }>({
  seed: [
    async ({}, provide) => {
      // Seeding starts workflows as the app's own writes do (a ladder walk, a campaign's dispatch).
      connectWorkflowEvents();
      const database = await openDatabase();
      try {
        await provide(seedOf(defaultCtx()));
      } finally {
        await closeDb();
        await database.close();
      }
    },
    { scope: "worker" },
  ],
});

export { expect } from "@playwright/test";

import "server-only";

import { eq, inArray, sql } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { brands, campaignAbTests, contacts } from "@/lib/db/schema";
import { domainSigningKey } from "@/lib/domains/domain-signing-key";
import type { OutgoingMessage } from "@/lib/mail/outgoing-message";
import { suppressedAmong } from "@/lib/suppressions/suppressed";
import { brandClearance } from "@/lib/workspaces/sending-clearance";

import { withAbVariant } from "./ab-test";
import { campaignMessage } from "./campaign-message";
import type { Campaign, ClaimedSend } from "./claim-batch";
import { renderCampaignMail } from "./render-campaign-mail";

export interface BatchFailure {
  id: string;
  reason: string;
  contactId: string;
  email: string;
}

/**
 * Step two: the message of each claimed send, rendered for its recipient,
 * or why it cannot be sent. Suppressed since the snapshot, not a sandbox
 * recipient while the brand cannot yet mail anyone (sending-clearance.ts), or missing a used merge tag: a failure
 * with its reason. Every message carries the one-click unsubscribe headers and its Feedback-ID (campaign-message.ts). A send whose contact was
 * erased since the batch was claimed is `erased`: it is not sent, and not a failure to announce.
 */
export async function buildBatch(
  ctx: Ctx,
  campaign: Campaign,
  rows: ClaimedSend[],
): Promise<{ messages: OutgoingMessage[]; failures: BatchFailure[]; erased: string[] }> {
  const [brand] = await ctx.db.select().from(brands).where(eq(brands.id, campaign.brandId));
  const dkim = await domainSigningKey(ctx, brand!);
  const emails = rows.map((r) => r.email);
  const people = new Map(
    (
      await ctx.db
        .select()
        .from(contacts)
        .where(
          inArray(
            contacts.id,
            rows.map((r) => r.contact_id),
          ),
        )
    ).map((c) => [c.id, c]),
  );
  const blocked = await suppressedAmong(ctx, campaign.workspaceId, emails);
  const { open } = await brandClearance(ctx, campaign.brandId);
  const [abTest] = await ctx.db.select().from(campaignAbTests).where(eq(campaignAbTests.campaignId, campaign.id));
  const verified = open
    ? null
    : new Set(
        (
          await ctx.db.execute<{ email: string }>(
            sql`select email from sandbox_recipients where workspace_id = ${campaign.workspaceId} and email in (${sql.join(
              emails.map((email) => sql`${email}`),
              sql`, `,
            )})`,
          )
        ).map((row) => row.email),
      );

  const failures: BatchFailure[] = [];
  const messages: OutgoingMessage[] = [];
  const erased: string[] = [];
  for (const row of rows) {
    const contact = people.get(row.contact_id);
    if (!contact) {
      erased.push(row.id);
      continue;
    }
    const fail = (reason: string) => failures.push({ id: row.id, reason, contactId: row.contact_id, email: row.email });
    if (blocked.has(row.email)) {
      fail("suppressed");
      continue;
    }
    if (verified && !verified.has(row.email)) {
      fail("recipient_not_verified");
      continue;
    }
    // An A/B test's send carries its variant; the rest carry the winner (ab-test.ts).
    const variant = withAbVariant(campaign, brand!, abTest ?? null, row.ab_variant ?? abTest?.winner ?? null);
    const mail = renderCampaignMail(variant.campaign, brand!, contact, row.id, { tracked: true });
    if ("missing" in mail) {
      fail(`missing_merge_tag:${mail.missing}`);
      continue;
    }
    messages.push({
      ...campaignMessage(campaign, variant.brand, { contactId: contact.id, email: row.email }, row.id, mail),
      ...(dkim ? { dkim } : {}),
    });
  }
  return { messages, failures, erased };
}

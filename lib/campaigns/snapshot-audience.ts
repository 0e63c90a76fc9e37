import { eq, sql } from "drizzle-orm";
import { withTransaction, type Ctx } from "@/lib/context";
import { campaigns, sends, workspaceBilling } from "@/lib/db/schema";
import { bulkIdPrefix } from "@/lib/ids";
import { recordCampaignEvent } from "./campaign-events";

/**
 * When dispatch starts: one `sends` row per recipient, each with its own
 * send_id. Recipients are the confirmed subscribers of the campaign's topic,
 * narrowed to the list when there is one, minus addresses and domains that
 * are suppressed and people who opted out of everything; each contact once.
 * The send allowance is reserved for them, the campaign becomes `sending`
 * and campaign.sending is recorded. Done once, in one transaction with the
 * campaign row locked: a retried step finds the snapshot taken and changes
 * nothing, and a failed one left nothing behind.
 */
export async function snapshotAudience(ctx: Ctx, campaignId: string): Promise<{ status: string; recipients: number }> {
  return withTransaction(ctx, async (tx) => {
    const [campaign] = await tx.db.select().from(campaigns).where(eq(campaigns.id, campaignId)).for("update");
    if (!campaign) return { status: "missing", recipients: 0 };
    if (campaign.recipientCount !== null || campaign.status !== "sending") return { status: campaign.status, recipients: campaign.recipientCount ?? 0 };
    const now = tx.clock.now();
    // Send ids: "snd_" + the time in hex + a random salt for this snapshot + the row's number, so
    // they sort by creation like every other id; one salt per snapshot instead of a hash per row
    // (which cost about a second per 400,000 recipients).
    const idPrefix = bulkIdPrefix("snd", now);
    const inserted = await tx.db.execute<{ n: number }>(sql`
      with added as (
        insert into ${sends} (id, workspace_id, campaign_id, contact_id, email, state, created_at, updated_at)
        select ${idPrefix} || lpad(to_hex(row_number() over ()), 8, '0'),
               c.workspace_id, ${campaign.id}, c.id, c.email, 'queued', ${now.toISOString()}, ${now.toISOString()}
        from subscriptions s
        join contacts c on c.id = s.contact_id
        where s.topic_id = ${campaign.topicId} and s.state = 'subscribed' and c.opted_out_at is null
          ${campaign.listId ? sql`and exists (select 1 from list_members m where m.list_id = ${campaign.listId} and m.contact_id = c.id)` : sql``}
          -- Two probes, each on its own unique index; one OR-ed probe would use neither.
          and not exists (select 1 from suppressions x where x.workspace_id = c.workspace_id and x.email = c.email)
          and not exists (select 1 from suppressions x where x.workspace_id = c.workspace_id and x.domain = split_part(c.email, '@', 2))
        returning 1)
      select count(*)::int as n from added`);
    const recipients = Number(inserted[0]!.n);
    await tx.db.update(campaigns).set({ recipientCount: recipients, sentAt: now, updatedAt: now }).where(eq(campaigns.id, campaign.id));
    await tx.db
      .update(workspaceBilling)
      .set({ sendsUsed: sql`${workspaceBilling.sendsUsed} + ${recipients}` })
      .where(eq(workspaceBilling.workspaceId, campaign.workspaceId));
    await recordCampaignEvent(tx, { ...campaign, recipientCount: recipients }, "campaign.sending");
    return { status: "sending", recipients };
  });
}

import { systemActor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { CAMPAIGN_STATUSES, type campaigns } from "@/lib/db/schema";
import type { EventType } from "@/lib/events/event-types";
import { recordEvent } from "@/lib/events/record-event";

type CampaignRow = typeof campaigns.$inferSelect;

/**
 * campaign.* payload of the spec; an unknown status is reported as null rather than guessed.
 * The event is the campaign's, in its workspace, whoever moved it (an operator acting across
 * workspaces included); it is always recorded, as no test key can move a campaign.
 */
export async function recordCampaignEvent(
  ctx: Ctx,
  campaign: CampaignRow,
  type: EventType,
  extra: Record<string, unknown> = {},
): Promise<void> {
  const now = ctx.clock.now();
  await recordEvent(
    ctx,
    systemActor("campaign", campaign.workspaceId),
    type,
    {
      campaign_id: campaign.id,
      campaign_name: campaign.name,
      subject: campaign.subject,
      brand_id: campaign.brandId,
      status: (CAMPAIGN_STATUSES as readonly string[]).includes(campaign.status) ? campaign.status : null,
      recipient_count: campaign.recipientCount,
      occurred_at: now.toISOString(),
      ...extra,
    },
    now,
  );
}

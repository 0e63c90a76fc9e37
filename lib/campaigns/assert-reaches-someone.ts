import "server-only";

import { eq, sql } from "drizzle-orm";

import { allowanceLeft } from "@/lib/billing/send-allowance";
import type { Ctx } from "@/lib/context";
import { brands, type campaigns } from "@/lib/db/schema";
import { INACTIVE } from "@/lib/deliverability/inactive-contacts";
import { ApiError } from "@/lib/errors";

import { classifiedAudience } from "./preview-audience";
import { NOT_VERIFIED } from "./sending-rules";

/**
 * A campaign that would reach nobody now is neither sent nor scheduled: refused with `no_recipients`,
 * saying why and what to do. "Nobody" is what the exclusion preview would count, by the same rules:
 * everyone of the topic left out by a rule, or no allowance left for this period. Stops at the first
 * person who would get it, so a large audience costs one row, not a count.
 */
export async function assertReachesSomeone(ctx: Ctx, campaign: typeof campaigns.$inferSelect): Promise<void> {
  const [brand] = await ctx.db.select().from(brands).where(eq(brands.id, campaign.brandId));
  const everyone = (await classifiedAudience(ctx, campaign, brand!))({ fromContactId: null, toContactId: null });
  const [found] = await ctx.db.execute<{ anyone: boolean }>(
    sql`select exists (select 1 from (${everyone}) people where reason = 'recipient') as anyone`,
  );
  if (found!.anyone) {
    if ((await allowanceLeft(ctx, campaign.workspaceId)) > 0) return;
    throw noRecipients(
      "Your plan's sending allowance for this period is used up, so nobody would get this campaign. Move to a larger plan on the Billing page, or send it when the next period starts.",
    );
  }
  const [why] = await ctx.db.execute<{
    sandboxed: boolean | null;
    inactive: boolean | null;
    opened: boolean | null;
    tag: string | null;
  }>(sql`
    select bool_or(reason = ${NOT_VERIFIED}) as sandboxed, bool_or(reason = ${INACTIVE}) as inactive,
           bool_or(reason = 'opened_original') as opened,
           min(reason) filter (where reason like 'missing_merge_tag:%') as tag
    from (${everyone}) people`);
  if (why?.tag)
    throw noRecipients(
      `Nobody would get this campaign: the people it would go to have no value for {{${why.tag.slice("missing_merge_tag:".length)}}}. Remove the tag, or fill it in for your contacts.`,
    );
  if (why?.sandboxed)
    throw noRecipients(
      "Nobody would get this campaign: until your workspace passes the review it goes only to your verified addresses, and none of them is subscribed to its topic. Add your own addresses as verified addresses and subscribe them, or pass the review.",
    );
  if (why?.inactive)
    throw noRecipients(
      "Nobody would get this campaign: everyone it would go to is inactive under your workspace's sunset of inactive contacts. Tick “Include inactive contacts” on the campaign to send to them anyway.",
    );
  if (why?.opened)
    throw noRecipients(
      "Nobody would get this campaign: everyone the original campaign reached who can still receive mail has opened it, so nobody is left to resend it to.",
    );
  throw noRecipients(
    "Nobody would get this campaign: its topic has no confirmed subscriber who is not unsubscribed or suppressed. Add subscribers, or choose another topic or list.",
  );
}

function noRecipients(message: string): ApiError {
  return new ApiError({ type: "invalid_request_error", code: "no_recipients", message });
}

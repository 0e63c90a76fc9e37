import "server-only";

import { and, eq, sql } from "drizzle-orm";

import type { WorkspaceActor } from "@/lib/actor";
import { billingAllowsSending } from "@/lib/billing/billing-allows-sending";
import type { Ctx } from "@/lib/context";
import { attributeDefinitions, contacts, workspaceBilling } from "@/lib/db/schema";
import { ApiError, validationFailed } from "@/lib/errors";
import { newId } from "@/lib/ids";
import type { MailTransport } from "@/lib/mail/transports/mail-transport";

import { getCampaignWithBrandOrThrow } from "./campaign-with-brand";
import { fillSampleValues, type SampleValue } from "./fill-sample-values";
import { mergeTagsIn } from "./merge-tag-names";
import { renderCampaignMail, SAMPLE_CONTACT } from "./render-campaign-mail";

/**
 * The addresses a test of the workspace's campaigns may go to: its members'
 * and its verified addresses. A test mail skips consent, so it never goes to
 * someone who did not ask to see the workspace's drafts.
 */
export async function testMailAddresses(ctx: Ctx, actor: WorkspaceActor): Promise<string[]> {
  const rows = await ctx.db.execute<{ email: string }>(
    sql`select email from sandbox_recipients where workspace_id = ${actor.workspaceId} order by email`,
  );
  return rows.map((row) => row.email);
}

/**
 * One copy of the campaign, subject marked as a test, to an address of
 * testMailAddresses: filled with that address's contact values when it is a
 * contact, and with a sample value for each tag it has none for (dispatch
 * would skip it), named in the answer; untracked, and counted nowhere. It is
 * mail all the same: none goes out while billing pauses the workspace's sending.
 */
export async function sendTestMail(
  ctx: Ctx,
  actor: WorkspaceActor,
  transport: MailTransport,
  campaignId: string,
  to: string,
): Promise<{ to: string; samples: SampleValue[] }> {
  const address = to.trim().toLowerCase();
  if (!(await testMailAddresses(ctx, actor)).includes(address)) {
    throw validationFailed(
      "to",
      "to: a test goes only to a member of this workspace or one of its verified addresses.",
    );
  }
  const row = await getCampaignWithBrandOrThrow(ctx, actor, campaignId);
  const [billing] = await ctx.db
    .select()
    .from(workspaceBilling)
    .where(eq(workspaceBilling.workspaceId, actor.workspaceId));
  if (billing && !billingAllowsSending(billing, ctx.clock.now())) {
    throw new ApiError({
      type: "permission_error",
      code: "billing_paused",
      message: "Sending is paused by billing, test mails included. Open Billing to resume it.",
    });
  }
  const [contact] = await ctx.db
    .select()
    .from(contacts)
    .where(and(eq(contacts.workspaceId, actor.workspaceId), eq(contacts.email, address)));
  const { campaign } = row;
  const tags = [
    ...new Set([campaign.subject, campaign.previewText ?? "", campaign.html, campaign.text ?? ""].flatMap(mergeTagsIn)),
  ];
  const definitions = await ctx.db
    .select()
    .from(attributeDefinitions)
    .where(eq(attributeDefinitions.workspaceId, actor.workspaceId));
  const { contact: filled, samples } = fillSampleValues(
    tags,
    contact ?? { id: SAMPLE_CONTACT.id, email: address, firstName: null, lastName: null, attributes: {} },
    row.brand,
    new Map(definitions.map((definition) => [definition.key, definition.type])),
    ctx.clock.now(),
  );
  const mail = renderCampaignMail(campaign, row.brand, filled, "snd_test", { tracked: false });
  // Only a brand's own value can still be missing: the brand's page asks for each.
  if ("missing" in mail) {
    throw new ApiError({
      type: "invalid_request_error",
      code: "merge_tag_missing",
      message: `The brand has no value for {{${mail.missing}}}: fill it on the brand's page, or no one gets this campaign.`,
    });
  }
  await transport.send(ctx, {
    workspaceId: actor.workspaceId,
    idempotencyKey: newId("msg"),
    from: { name: row.brand.name, address: row.brand.senderEmail },
    replyTo: row.brand.replyTo ?? undefined,
    to: address,
    subject: `[Test] ${mail.subject}`,
    html: mail.html,
    text: mail.text,
  });
  return { to: address, samples };
}

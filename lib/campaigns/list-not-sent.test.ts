import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { campaigns, verifiedAddresses } from "@/lib/db/schema";
import { getMailTransport } from "@/lib/mail/get-mail-transport";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { countNotSent } from "./count-not-sent";
import { listNotSent, NOT_SENT_PER_PAGE } from "./list-not-sent";
import { notSentCsv } from "./not-sent-csv";
import { createCampaign } from "./save-campaign";
import { sendNextBatch } from "./send-batch";
import { snapshotAudience } from "./snapshot-audience";

const { ctx, clock } = testCtx();
const PEOPLE = NOT_SENT_PER_PAGE + 11;

/** A campaign sent in the sandbox to PEOPLE subscribers of whom only the last is a verified address. */
async function sentInTheSandbox() {
  const { workspaceId, brandId } = await seedWorkspace(ctx);
  const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
  const tag = topicId.slice(-8);
  await ctx.db.execute(sql`insert into contacts (id, workspace_id, email)
    select 'ct_' || ${tag} || lpad(i::text, 18, '0'), ${workspaceId}, 'p' || lpad(i::text, 3, '0') || '@' || ${tag} || '.example' from generate_series(1, ${PEOPLE}::int) i`);
  await ctx.db.execute(sql`insert into subscriptions (id, workspace_id, contact_id, topic_id, state, source)
    select 'sub_' || ${tag} || lpad(i::text, 18, '0'), ${workspaceId}, 'ct_' || ${tag} || lpad(i::text, 18, '0'), ${topicId}, 'subscribed', 'api' from generate_series(1, ${PEOPLE}::int) i`);
  await ctx.db
    .insert(verifiedAddresses)
    .values({ workspaceId, email: `p${String(PEOPLE).padStart(3, "0")}@${tag}.example`, verifiedAt: clock.now() });
  const { campaignId } = await createCampaign(ctx, systemActor("test", workspaceId), {
    brandId,
    topicId,
    name: "First",
    subject: "Hi",
    html: "<p>Hi</p>",
  });
  await ctx.db.update(campaigns).set({ status: "sending" }).where(eq(campaigns.id, campaignId));
  await snapshotAudience(ctx, campaignId);
  let after: string | null = null;
  do
    after = (await sendNextBatch(ctx, getMailTransport(), { campaignId, size: 100, claimant: "not-sent-test", after }))
      .next;
  while (after);
  return { workspaceId, campaignId, tag };
}

async function csvOf(chunks: AsyncGenerator<string>): Promise<string[]> {
  let text = "";
  for await (const chunk of chunks) text += chunk;
  return text.trim().split("\n");
}

describe("who a campaign was not sent to", () => {
  it("is counted per reason, listed a page at a time by address, and downloadable in full as CSV with the reason in words and what to do", async () => {
    const { workspaceId, campaignId, tag } = await sentInTheSandbox();
    const actor = systemActor("test", workspaceId);
    expect(await countNotSent(ctx, campaignId)).toEqual([{ reason: "recipient_not_verified", count: PEOPLE - 1 }]);

    const first = await listNotSent(ctx, actor, campaignId, 1);
    expect(first).toMatchObject({ total: PEOPLE - 1, page: 1, pages: 2 });
    expect(first.rows).toHaveLength(NOT_SENT_PER_PAGE);
    expect(first.rows[0]).toEqual({ email: `p001@${tag}.example`, reason: "recipient_not_verified" });
    const second = await listNotSent(ctx, actor, campaignId, 2);
    expect(second.rows.map((row) => row.email)).toEqual(
      Array.from(
        { length: PEOPLE - 1 - NOT_SENT_PER_PAGE },
        (_, i) => `p${String(NOT_SENT_PER_PAGE + 1 + i).padStart(3, "0")}@${tag}.example`,
      ),
    );
    // A page past the last shows the last.
    expect((await listNotSent(ctx, actor, campaignId, 99)).page).toBe(2);

    const lines = await csvOf(notSentCsv(ctx, actor, campaignId));
    expect(lines[0]).toBe("email,reason,kind,detail,what_to_do");
    expect(lines).toHaveLength(PEOPLE);
    expect(lines[1]).toMatch(
      /^p\d{3}@.*,recipient_not_verified,not sent by a rule,Sandbox: not one of your verified addresses,.*pass the review, or add them as verified addresses/,
    );
  });

  it("a campaign of another workspace is not found, in the list as in the CSV", async () => {
    const { campaignId } = await sentInTheSandbox();
    const other = systemActor("test", (await seedWorkspace(ctx)).workspaceId);
    await expect(listNotSent(ctx, other, campaignId, 1)).rejects.toMatchObject({ code: "campaign_not_found" });
    await expect(csvOf(notSentCsv(ctx, other, campaignId))).rejects.toMatchObject({ code: "campaign_not_found" });
  });
});

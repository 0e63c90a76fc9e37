import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { ladderMail } from "@/lib/billing/ladder-mail";
import { confirmSubscription } from "@/lib/consent/confirm-subscription";
import { decideAndSendConfirmation } from "@/lib/consent/send-confirmation-mail";
import { sendWelcomeMail } from "@/lib/consent/send-welcome-mail";
import { brands, confirmationRequests, mailMessages, workspaces } from "@/lib/db/schema";
import { scoreMessages } from "@/lib/deliverability/spam-score";
import { SPAM_SCORE_GOOD_BELOW } from "@/lib/deliverability/spam-score-levels";
import { inviteMember } from "@/lib/members/invite-member";
import { reviewBrand, reviewWorkspace } from "@/lib/operator/review-decisions";
import { appUrl } from "@/lib/runtime/app-url";
import { addVerifiedAddress } from "@/lib/sandbox/verified-addresses";
import { subscribeFromForm } from "@/lib/subscriptions/subscribe-from-form";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";
import { signToken } from "@/lib/tokens/signed-token";
import { createUser } from "@/lib/users/create-user";
import { requestPasswordReset } from "@/lib/users/request-password-reset";

import { mailOwners } from "./mail-owners";
import { localTransport } from "./transports/local-transport";

const { ctx } = testCtx(new Date("2026-04-01T09:00:00.000Z"));

/**
 * Every mail the service writes itself, each made by the verb that sends it, and stored by the
 * local transport as the complete message a relay would get.
 */
async function sendEveryServiceMail(): Promise<void> {
  const { workspaceId, brandId } = await seedWorkspace(ctx, { ownerEmail: "owner@northwind.example" });
  // Named as a business names its workspace and brand: often as its own domain.
  await ctx.db.update(workspaces).set({ name: "Northwind Coffee" }).where(eq(workspaces.id, workspaceId));
  await ctx.db.update(brands).set({ name: "Northwind Coffee" }).where(eq(brands.id, brandId));
  const actor = systemActor("test", workspaceId);
  await inviteMember(ctx, actor, { email: "new.member@northwind.example" });
  await createUser(ctx, { email: "has.account@northwind.example", password: "a long password" });
  await inviteMember(ctx, actor, { email: "has.account@northwind.example" });
  await addVerifiedAddress(ctx, actor, { email: "tester@northwind.example" });
  await (
    await requestPasswordReset(ctx, { email: "has.account@northwind.example", ip: "198.51.100.20" })
  ).mailing;

  const reason = "The website does not say who runs it: add the company's name and address.";
  await reviewWorkspace(ctx, workspaceId, { decision: "reject", reason, reviewer: "usr_op" });
  await reviewWorkspace(ctx, workspaceId, { decision: "approve", reason: "", reviewer: "usr_op" });
  const seen = async () =>
    (await ctx.db.select({ updatedAt: brands.updatedAt }).from(brands).where(eq(brands.id, brandId)))[0]!.updatedAt;
  await reviewBrand(ctx, brandId, { decision: "reject", reason, reviewer: "usr_op", seenUpdatedAt: await seen() });
  await reviewBrand(ctx, brandId, { decision: "approve", reason: "", reviewer: "usr_op", seenUpdatedAt: await seen() });
  // The billing ladder's mail goes through mailOwners with the billing link (lib/billing/advance-ladder.ts).
  const deletion = new Date("2026-06-01T00:00:00.000Z");
  for (const [step, cause] of [
    ["overdue", "payment_failed"],
    ["read_only", "trial_ended"],
    ["deletion_scheduled", "cancelled"],
    ["reminder_1", "payment_failed"],
    ["deleted", "trial_ended"],
  ] as const) {
    await mailOwners(ctx, workspaceId, {
      ...ladderMail(step, cause, "Northwind Coffee", deletion),
      link: { href: `${appUrl()}/w/${workspaceId}/billing`, label: "Open billing" },
    });
  }

  // The brand's consent mail: the double opt-in confirmation, then the welcome once confirmed.
  const topicId = await seedTopic(ctx, workspaceId, brandId);
  await subscribeFromForm(ctx, actor, { topicId, email: "reader@example.org" });
  const [request] = await ctx.db
    .select()
    .from(confirmationRequests)
    .where(eq(confirmationRequests.workspaceId, workspaceId));
  await decideAndSendConfirmation(ctx, localTransport(), request!.id);
  const confirmed = await confirmSubscription(ctx, signToken("confirm", { r: request!.id }), {
    ip: "203.0.113.7",
    userAgent: "Mozilla/5.0",
  });
  expect(confirmed.outcome).toBe("confirmed");
  expect(await sendWelcomeMail(ctx, localTransport(), request!.subscriptionId)).toEqual({ sent: true });
}

describe("the spam score of the service's own mail", () => {
  it("the service's own mails score below 2.0 with SpamAssassin's local rules: invitations, address confirmations, password resets, review and billing notices, subscription confirmations and welcomes", async () => {
    await sendEveryServiceMail();
    const sent = await ctx.db.select({ subject: mailMessages.subject, raw: mailMessages.raw }).from(mailMessages);
    expect(sent.length).toBe(15);
    const scores = await scoreMessages(sent.map((message) => message.raw));
    const results = sent.map((message, i) => {
      const score = scores[i]!;
      if (!score.available) throw new Error(`not scored (${score.reason}): is Debian's spamassassin installed?`);
      return {
        subject: message.subject,
        score: score.score,
        rules: score.rules.map((rule) => `${rule.name} ${rule.score}`),
      };
    });
    expect(results.filter((mail) => mail.score >= SPAM_SCORE_GOOD_BELOW)).toEqual([]);
  });
});

import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { systemActor } from "@/lib/actor";
import { brands, workspaces } from "@/lib/db/schema";
import { listMailbox } from "@/lib/mail/list-mailbox";
import { inviteMember } from "@/lib/members/invite-member";
import { seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";
import { createUser } from "@/lib/users/create-user";
import { brandClearance } from "@/lib/workspaces/sending-clearance";
import { grantOperator } from "./grant-operator";
import { listReviewQueue } from "./review-queue";
import { reviewBrand, reviewWorkspace } from "./review-decisions";

const { ctx } = testCtx();
const mailTo = async (email: string) => (await listMailbox(ctx, systemActor("test"), { to: email })).map((mail) => ({ subject: mail.subject, text: mail.text }));

describe("the service's review", () => {
  it("a rejected workspace's owners are mailed the reason and it stays in the queue with it; an approval ends its review step", async () => {
    const { workspaceId } = await seedWorkspace(ctx, { ownerEmail: "owner.review@example.com" });
    await expect(reviewWorkspace(ctx, workspaceId, { decision: "reject", reason: "short", reviewer: "usr_op" })).rejects.toMatchObject({ code: "validation_failed", param: "reason" });
    const rejected = await reviewWorkspace(ctx, workspaceId, { decision: "reject", reason: "Your website does not say who runs it.", reviewer: "usr_op" });
    expect(rejected).toMatchObject({ decision: "reject", mailed: 1 });
    expect(await mailTo("owner.review@example.com")).toEqual([
      expect.objectContaining({ subject: expect.stringContaining("did not pass the review"), text: expect.stringContaining("Your website does not say who runs it.") }),
    ]);
    expect((await listReviewQueue(ctx)).workspaces.find((workspace) => workspace.id === workspaceId)).toMatchObject({
      reviewNote: "Your website does not say who runs it.",
      owners: ["owner.review@example.com"],
    });

    await reviewWorkspace(ctx, workspaceId, { decision: "approve", reason: "", reviewer: "usr_op" });
    expect((await ctx.db.select().from(workspaces).where(eq(workspaces.id, workspaceId)))[0]).toMatchObject({ approvedAt: expect.any(Date), reviewRejectedAt: null });
    expect((await listReviewQueue(ctx)).workspaces.map((workspace) => workspace.id)).not.toContain(workspaceId);
    expect((await mailTo("owner.review@example.com")).map((mail) => mail.subject)).toContainEqual(expect.stringMatching(/ passed the review$/));
  });

  it("a brand approved by an operator leaves the queue and counts for the sandbox; a rejected one is told what to change, its owners mailed (not its other members)", async () => {
    const { workspaceId, brandId } = await seedWorkspace(ctx, { ownerEmail: "first.owner@example.com" });
    await inviteMember(ctx, systemActor("test", workspaceId), { email: "just.a.member@example.com" });
    expect((await listReviewQueue(ctx)).brands.map((brand) => brand.id)).toContain(brandId);
    const rejected = await reviewBrand(ctx, brandId, { decision: "reject", reason: "The postal address is a PO box; give a street address.", reviewer: "usr_op" });
    expect(rejected.mailed).toBe(1);
    expect((await mailTo("first.owner@example.com"))[0]!.text).toContain("The postal address is a PO box");
    expect((await mailTo("just.a.member@example.com")).map((mail) => mail.subject)).not.toContainEqual(expect.stringContaining("needs changes"));
    expect((await ctx.db.select().from(brands).where(eq(brands.id, brandId)))[0]).toMatchObject({ reviewStatus: "rejected", reviewNote: "The postal address is a PO box; give a street address." });
    expect((await brandClearance(ctx, brandId)).missing).toContain("brand");

    await reviewBrand(ctx, brandId, { decision: "approve", reason: "", reviewer: "usr_op" });
    expect((await brandClearance(ctx, brandId)).missing).not.toContain("brand");
    expect((await listReviewQueue(ctx)).brands.map((brand) => brand.id)).not.toContain(brandId);
  });

  it("a rejection withdraws an earlier approval; a brand edited since the operator opened the queue is not decided blind", async () => {
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    await reviewWorkspace(ctx, workspaceId, { decision: "approve", reason: "", reviewer: "usr_op" });
    await reviewWorkspace(ctx, workspaceId, { decision: "reject", reason: "The business address turned out to be false.", reviewer: "usr_op" });
    expect((await ctx.db.select().from(workspaces).where(eq(workspaces.id, workspaceId)))[0]).toMatchObject({ approvedAt: null, reviewRejectedAt: expect.any(Date) });

    const seen = (await listReviewQueue(ctx)).brands.find((brand) => brand.id === brandId)!.updatedAt;
    await ctx.db
      .update(brands)
      .set({ legalName: "Someone Else Ltd", updatedAt: new Date(seen.getTime() + 1000) })
      .where(eq(brands.id, brandId));
    await expect(reviewBrand(ctx, brandId, { decision: "approve", reason: "", reviewer: "usr_op", seenUpdatedAt: seen })).rejects.toMatchObject({ code: "brand_changed" });
    expect((await ctx.db.select().from(brands).where(eq(brands.id, brandId)))[0]!.reviewStatus).toBe("pending");
  });

  it("operators are made by an operator's command only; an unknown user is refused", async () => {
    await createUser(ctx, { email: "reviewer@service.example", password: "a long enough password" });
    expect(await grantOperator(ctx, "Reviewer@Service.example")).toMatch(/^usr_/);
    await expect(grantOperator(ctx, "nobody@service.example")).rejects.toMatchObject({ code: "user_not_found" });
  });
});

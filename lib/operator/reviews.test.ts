import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { updateBrand } from "@/lib/brands/update-brand";
import { withTransaction } from "@/lib/context";
import { brands, users, workspaces } from "@/lib/db/schema";
import { listMailbox } from "@/lib/mail/list-mailbox";
import { inviteMember } from "@/lib/members/invite-member";
import { seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";
import { createUser } from "@/lib/users/create-user";
import { brandClearance } from "@/lib/workspaces/sending-clearance";

import { grantOperator } from "./grant-operator";
import { listSelfReviews } from "./list-self-reviews";
import { reviewBrand, reviewWorkspace } from "./review-decisions";
import { listReviewQueue } from "./review-queue";

const { ctx } = testCtx();
/** The brand as the operator saw it in the queue. */
const seen = async (brandId: string) =>
  (await ctx.db.select({ updatedAt: brands.updatedAt }).from(brands).where(eq(brands.id, brandId)))[0]!.updatedAt;

/** Backends waiting, directly or through another waiter, for a lock the backend `pid` holds. */
async function blockedBy(pid: number): Promise<number> {
  const [row] = await ctx.db.execute<{ n: number }>(sql`
    with recursive blocked(pid) as (
      select a.pid from pg_stat_activity a where ${pid}::int = any(pg_blocking_pids(a.pid))
      union select a.pid from pg_stat_activity a join blocked b on b.pid = any(pg_blocking_pids(a.pid)))
    select count(*)::int as n from blocked`);
  return row!.n;
}

/** The service's operators are exactly these users. */
async function operatorsAre(...userIds: string[]) {
  await ctx.db.update(users).set({ isOperator: false });
  for (const userId of userIds) await ctx.db.update(users).set({ isOperator: true }).where(eq(users.id, userId));
}

const mailTo = async (email: string) =>
  (await listMailbox(ctx, systemActor("test"), { to: email })).map((mail) => ({
    subject: mail.subject,
    text: mail.text,
  }));

describe("the service's review", () => {
  it("a rejected workspace's owners are mailed the reason and it stays in the queue with it; an approval ends its review step", async () => {
    const { workspaceId } = await seedWorkspace(ctx, { ownerEmail: "owner.review@example.com" });
    await expect(
      reviewWorkspace(ctx, workspaceId, { decision: "reject", reason: "short", reviewer: "usr_op" }),
    ).rejects.toMatchObject({ code: "validation_failed", param: "reason" });
    const rejected = await reviewWorkspace(ctx, workspaceId, {
      decision: "reject",
      reason: "Your website does not say who runs it.",
      reviewer: "usr_op",
    });
    expect(rejected).toMatchObject({ decision: "reject", mailed: 1 });
    expect(await mailTo("owner.review@example.com")).toEqual([
      expect.objectContaining({
        subject: expect.stringContaining("did not pass the review"),
        text: expect.stringContaining("Your website does not say who runs it."),
      }),
    ]);
    expect((await listReviewQueue(ctx)).workspaces.find((workspace) => workspace.id === workspaceId)).toMatchObject({
      reviewNote: "Your website does not say who runs it.",
      owners: ["owner.review@example.com"],
    });

    await reviewWorkspace(ctx, workspaceId, { decision: "approve", reason: "", reviewer: "usr_op" });
    expect((await ctx.db.select().from(workspaces).where(eq(workspaces.id, workspaceId)))[0]).toMatchObject({
      approvedAt: expect.any(Date),
      reviewRejectedAt: null,
    });
    expect((await listReviewQueue(ctx)).workspaces.map((workspace) => workspace.id)).not.toContain(workspaceId);
    expect((await mailTo("owner.review@example.com")).map((mail) => mail.subject)).toContainEqual(
      expect.stringMatching(/ passed the review$/),
    );
  });

  it("a brand approved by an operator leaves the queue and counts for the sandbox; a rejected one is told what to change, its owners mailed (not its other members)", async () => {
    const { workspaceId, brandId } = await seedWorkspace(ctx, { ownerEmail: "first.owner@example.com" });
    await inviteMember(ctx, systemActor("test", workspaceId), { email: "just.a.member@example.com" });
    expect((await listReviewQueue(ctx)).brands.map((brand) => brand.id)).toContain(brandId);
    const rejected = await reviewBrand(ctx, brandId, {
      decision: "reject",
      reason: "The postal address is a PO box; give a street address.",
      reviewer: "usr_op",
      seenUpdatedAt: await seen(brandId),
    });
    expect(rejected.mailed).toBe(1);
    expect((await mailTo("first.owner@example.com"))[0]!.text).toContain("The postal address is a PO box");
    expect((await mailTo("just.a.member@example.com")).map((mail) => mail.subject)).not.toContainEqual(
      expect.stringContaining("needs changes"),
    );
    expect((await ctx.db.select().from(brands).where(eq(brands.id, brandId)))[0]).toMatchObject({
      reviewStatus: "rejected",
      reviewNote: "The postal address is a PO box; give a street address.",
    });
    expect((await brandClearance(ctx, brandId)).missing).toContain("brand");

    await reviewBrand(ctx, brandId, {
      decision: "approve",
      reason: "",
      reviewer: "usr_op",
      seenUpdatedAt: await seen(brandId),
    });
    expect((await brandClearance(ctx, brandId)).missing).not.toContain("brand");
    expect((await listReviewQueue(ctx)).brands.map((brand) => brand.id)).not.toContain(brandId);
  });

  it("a rejection withdraws an earlier approval; a brand edited since the operator opened the queue is not decided blind", async () => {
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    await reviewWorkspace(ctx, workspaceId, { decision: "approve", reason: "", reviewer: "usr_op" });
    await reviewWorkspace(ctx, workspaceId, {
      decision: "reject",
      reason: "The business address turned out to be false.",
      reviewer: "usr_op",
    });
    expect((await ctx.db.select().from(workspaces).where(eq(workspaces.id, workspaceId)))[0]).toMatchObject({
      approvedAt: null,
      reviewRejectedAt: expect.any(Date),
    });

    const seen = (await listReviewQueue(ctx)).brands.find((brand) => brand.id === brandId)!.updatedAt;
    await ctx.db
      .update(brands)
      .set({ legalName: "Someone Else Ltd", updatedAt: new Date(seen.getTime() + 1000) })
      .where(eq(brands.id, brandId));
    await expect(
      reviewBrand(ctx, brandId, { decision: "approve", reason: "", reviewer: "usr_op", seenUpdatedAt: seen }),
    ).rejects.toMatchObject({ code: "brand_changed" });
    expect((await ctx.db.select().from(brands).where(eq(brands.id, brandId)))[0]!.reviewStatus).toBe("pending");
  });

  it("operators are made by an operator's command only; an unknown user is refused", async () => {
    await createUser(ctx, { email: "reviewer@service.example", password: "a long enough password" });
    expect(await grantOperator(ctx, "Reviewer@Service.example")).toMatch(/^usr_/);
    await expect(grantOperator(ctx, "nobody@service.example")).rejects.toMatchObject({ code: "user_not_found" });
  });

  it("a brand decision must say what the operator saw: without it, it is refused and nothing is decided", async () => {
    const { brandId } = await seedWorkspace(ctx);
    await expect(
      reviewBrand(ctx, brandId, { decision: "approve", reason: "", reviewer: "usr_op" }),
    ).rejects.toMatchObject({ code: "validation_failed", param: "seen_updated_at" });
    expect((await ctx.db.select().from(brands).where(eq(brands.id, brandId)))[0]!.reviewStatus).toBe("pending");
  });

  it("a brand edit under way when the operator decides is not approved blind: the decision waits for it and is refused with brand_changed", async () => {
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    const seenUpdatedAt = await seen(brandId);
    let decision: Promise<unknown> | undefined;
    await withTransaction(ctx, async (tx) => {
      await updateBrand(
        { ...tx, clock: { now: () => new Date(seenUpdatedAt.getTime() + 1000) } },
        systemActor("test", workspaceId),
        brandId,
        { legalName: "Someone Else Ltd" },
      );
      const [{ pid }] = (await tx.db.execute(sql`select pg_backend_pid() as pid`)) as unknown as [{ pid: number }];
      decision = reviewBrand(ctx, brandId, {
        decision: "approve",
        reason: "",
        reviewer: "usr_op",
        seenUpdatedAt,
      }).catch((error: unknown) => error);
      while ((await blockedBy(pid)) === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    });
    expect(await decision).toMatchObject({ code: "brand_changed" });
    expect((await ctx.db.select().from(brands).where(eq(brands.id, brandId)))[0]).toMatchObject({
      legalName: "Someone Else Ltd",
      reviewStatus: "pending",
    });
  });

  it("where the service has another operator, an operator cannot review a workspace or a brand they are a member of", async () => {
    const { workspaceId, brandId, ownerUserId } = await seedWorkspace(ctx, {
      ownerEmail: "operator.and.owner@example.com",
    });
    const other = await seedWorkspace(ctx, { ownerEmail: "independent.operator@example.com" });
    await operatorsAre(ownerUserId, other.ownerUserId);
    await expect(
      reviewWorkspace(ctx, workspaceId, { decision: "approve", reason: "", reviewer: ownerUserId }),
    ).rejects.toMatchObject({ code: "own_review" });
    await expect(
      reviewBrand(ctx, brandId, {
        decision: "approve",
        reason: "",
        reviewer: ownerUserId,
        seenUpdatedAt: await seen(brandId),
      }),
    ).rejects.toMatchObject({ code: "own_review" });
    expect((await ctx.db.select().from(workspaces).where(eq(workspaces.id, workspaceId)))[0]!.approvedAt).toBeNull();
    expect((await ctx.db.select().from(brands).where(eq(brands.id, brandId)))[0]!.reviewStatus).toBe("pending");

    await reviewBrand(ctx, brandId, {
      decision: "approve",
      reason: "",
      reviewer: other.ownerUserId,
      seenUpdatedAt: await seen(brandId),
    });
    expect((await ctx.db.select().from(brands).where(eq(brands.id, brandId)))[0]).toMatchObject({
      reviewStatus: "approved",
      reviewedBy: other.ownerUserId,
      selfReviewed: false,
    });
  });

  it("the only operator (a self-hosted install's first owner) may review their own workspace and brand, and each decision is recorded as a self-review", async () => {
    const { workspaceId, brandId, ownerUserId } = await seedWorkspace(ctx, { ownerEmail: "sole.operator@example.com" });
    await operatorsAre(ownerUserId);
    await reviewWorkspace(ctx, workspaceId, {
      decision: "reject",
      reason: "Add the company's address to the website.",
      reviewer: ownerUserId,
    });
    expect((await listReviewQueue(ctx)).workspaces.find((workspace) => workspace.id === workspaceId)).toMatchObject({
      selfReviewed: true,
    });
    await reviewWorkspace(ctx, workspaceId, { decision: "approve", reason: "", reviewer: ownerUserId });
    await reviewBrand(ctx, brandId, {
      decision: "approve",
      reason: "",
      reviewer: ownerUserId,
      seenUpdatedAt: await seen(brandId),
    });
    expect((await ctx.db.select().from(workspaces).where(eq(workspaces.id, workspaceId)))[0]).toMatchObject({
      approvedAt: expect.any(Date),
      reviewedBy: ownerUserId,
      selfReviewed: true,
    });
    expect((await ctx.db.select().from(brands).where(eq(brands.id, brandId)))[0]).toMatchObject({
      reviewStatus: "approved",
      reviewedBy: ownerUserId,
      selfReviewed: true,
    });
    expect((await listSelfReviews(ctx)).filter((review) => review.id === workspaceId || review.id === brandId)).toEqual(
      [
        expect.objectContaining({
          kind: "workspace",
          id: workspaceId,
          decision: "approved",
          reviewer: "sole.operator@example.com",
        }),
        expect.objectContaining({
          kind: "brand",
          id: brandId,
          decision: "approved",
          reviewer: "sole.operator@example.com",
        }),
      ],
    );
  });
});

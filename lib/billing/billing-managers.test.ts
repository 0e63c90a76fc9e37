import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { apiKeyActor, systemActor, userActor } from "@/lib/actor";
import { workspaceBilling } from "@/lib/db/schema";
import { inviteMember } from "@/lib/members/invite-member";
import { seedKey, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { choosePlan, paymentPortalUrl } from "./choose-plan";
import { cancelPlan } from "./plan-changes";

const { ctx } = testCtx();
const refused = { type: "permission_error", code: "not_allowed" };

describe("who manages billing", () => {
  it("only the workspace's owners and admins manage billing: a member is refused choosing, paying for or cancelling a plan, whoever calls lib", async () => {
    const { workspaceId, ownerUserId } = await seedWorkspace(ctx);
    const owner = userActor(ownerUserId, workspaceId);
    const member = userActor(
      (await inviteMember(ctx, owner, { email: "member@example.com", role: "member" })).userId,
      workspaceId,
    );
    const admin = userActor(
      (await inviteMember(ctx, owner, { email: "admin@example.com", role: "admin" })).userId,
      workspaceId,
    );

    await expect(choosePlan(ctx, member, "starter")).rejects.toMatchObject(refused);
    await expect(paymentPortalUrl(ctx, member)).rejects.toMatchObject(refused);
    await ctx.db.update(workspaceBilling).set({ plan: "starter" }).where(eq(workspaceBilling.workspaceId, workspaceId));
    await expect(cancelPlan(ctx, member)).rejects.toMatchObject(refused);
    expect(
      (await ctx.db.select().from(workspaceBilling).where(eq(workspaceBilling.workspaceId, workspaceId)))[0]!
        .cancelAtPeriodEnd,
    ).toBe(false);

    expect(await choosePlan(ctx, admin, "starter")).toMatchObject({ invoiceId: expect.any(String) });
    expect(await cancelPlan(ctx, owner)).toMatchObject({ cancelAtPeriodEnd: true });
  });

  it("an API key never manages billing; the system (operator, CLI, payment provider) always may", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const { keyId } = await seedKey(ctx, workspaceId);
    await expect(
      choosePlan(ctx, apiKeyActor({ keyId, workspaceId, brandId: null, mode: "live" }), "starter"),
    ).rejects.toMatchObject(refused);
    expect(await choosePlan(ctx, systemActor("admin-cli", workspaceId), "starter")).toMatchObject({
      invoiceId: expect.any(String),
    });
  });
});

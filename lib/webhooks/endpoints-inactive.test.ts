import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { userActor } from "@/lib/actor";
import { webhookEndpoints } from "@/lib/db/schema";
import { seedWorkspace, setBillingStage } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { createEndpoint, enableEndpoint, rotateSecret } from "./endpoints";

const { ctx } = testCtx();

const endpointRow = async (endpointId: string) =>
  (await ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId)))[0]!;

describe("webhook endpoints of a workspace that billing has made inactive", () => {
  it.each(["read_only", "deletion_scheduled", "deleted"] as const)(
    "a %s workspace cannot register, rotate or re-enable an endpoint: team_inactive, nothing changed",
    async (stage) => {
      const { workspaceId, ownerUserId } = await seedWorkspace(ctx);
      const member = userActor(ownerUserId, workspaceId);
      const { endpointId } = await createEndpoint(ctx, member, { url: "https://93.184.215.14/hook", eventTypes: [] });
      await ctx.db
        .update(webhookEndpoints)
        .set({ enabled: false, disabledReason: "failing" })
        .where(eq(webhookEndpoints.id, endpointId));
      const before = await endpointRow(endpointId);
      await setBillingStage(ctx, workspaceId, stage);

      await expect(
        createEndpoint(ctx, member, { url: "https://93.184.215.14/another", eventTypes: [] }),
      ).rejects.toMatchObject({ code: "team_inactive" });
      await expect(rotateSecret(ctx, member, endpointId)).rejects.toMatchObject({ code: "team_inactive" });
      await expect(enableEndpoint(ctx, member, endpointId)).rejects.toMatchObject({ code: "team_inactive" });
      expect(
        await ctx.db
          .select({ id: webhookEndpoints.id })
          .from(webhookEndpoints)
          .where(eq(webhookEndpoints.workspaceId, workspaceId)),
      ).toEqual([{ id: endpointId }]);
      expect(await endpointRow(endpointId)).toEqual(before);
    },
  );

  it("an overdue workspace (only its sending paused) still manages its endpoints", async () => {
    const { workspaceId, ownerUserId } = await seedWorkspace(ctx);
    const member = userActor(ownerUserId, workspaceId);
    await setBillingStage(ctx, workspaceId, "overdue");
    const { endpointId } = await createEndpoint(ctx, member, { url: "https://93.184.215.14/hook", eventTypes: [] });
    await rotateSecret(ctx, member, endpointId);
    expect((await enableEndpoint(ctx, member, endpointId)).enabled).toBe(true);
  });
});

import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { userActor } from "@/lib/actor";
import { providerEvents, suppressions } from "@/lib/db/schema";
import { seedWorkspace, setBillingStage } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { simulateOutcome } from "./simulate-outcome";
import { localTransport } from "./transports/local-transport";

const { ctx } = testCtx();

async function messageIn(workspaceId: string) {
  const mail = {
    workspaceId,
    idempotencyKey: `m-${workspaceId}`,
    from: { name: "Brand", address: "news@brand.example" },
    to: "reader@example.com",
    subject: "Hi",
    text: "hi",
    html: "<p>hi</p>",
  };
  return (await localTransport().send(ctx, mail)).providerMessageId;
}

describe("the local mailbox of a workspace that billing has made inactive", () => {
  it.each(["read_only", "deletion_scheduled", "deleted"] as const)(
    "a %s workspace cannot report a bounce or complaint from its mailbox: team_inactive, nobody suppressed, no report stored",
    async (stage) => {
      const { workspaceId, ownerUserId } = await seedWorkspace(ctx);
      const messageId = await messageIn(workspaceId);
      await setBillingStage(ctx, workspaceId, stage);
      const member = userActor(ownerUserId, workspaceId);
      await expect(simulateOutcome(ctx, member, messageId, { type: "complained" })).rejects.toMatchObject({
        code: "team_inactive",
      });
      await expect(
        simulateOutcome(ctx, member, messageId, { type: "bounced", bounceType: "permanent" }),
      ).rejects.toMatchObject({ code: "team_inactive" });
      expect(await ctx.db.select().from(suppressions).where(eq(suppressions.workspaceId, workspaceId))).toEqual([]);
      expect(await ctx.db.select().from(providerEvents).where(eq(providerEvents.workspaceId, workspaceId))).toEqual([]);
    },
  );
});

import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { apiKeyActor, systemActor, userActor } from "@/lib/actor";
import { events } from "@/lib/db/schema";
import { seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { recordEvent } from "./record-event";

const { ctx, clock } = testCtx();

const typesIn = async (workspaceId: string) =>
  (await ctx.db.select().from(events).where(eq(events.workspaceId, workspaceId))).map((e) => e.type);

describe("events belong to the actor's workspace", () => {
  it("recordEvent: an event is recorded in the actor's workspace only; a test key records nothing; the operator must name a workspace", async () => {
    const a = await seedWorkspace(ctx);
    const b = await seedWorkspace(ctx);
    await recordEvent(
      ctx,
      userActor(a.ownerUserId, a.workspaceId),
      "email.delivered",
      { send_id: "snd_a" },
      clock.now(),
    );
    await recordEvent(
      ctx,
      apiKeyActor({ keyId: "key_test_a", workspaceId: a.workspaceId, brandId: null, mode: "test" }),
      "email.bounced",
      { send_id: "snd_a" },
      clock.now(),
    );
    await expect(
      recordEvent(ctx, systemActor("test"), "email.opened", { send_id: "snd_b" }, clock.now()),
    ).rejects.toMatchObject({ code: "workspace_required" });
    expect(await typesIn(a.workspaceId)).toEqual(["email.delivered"]);
    expect(await typesIn(b.workspaceId)).toEqual([]);
  });
});

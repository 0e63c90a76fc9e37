import { describe, expect, it } from "vitest";
import { userActor } from "@/lib/actor";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";
import { exportContactsCsv } from "./export-contacts";

const { ctx } = testCtx();

describe("contact export", () => {
  // Found by app/tenant-matrix.test.ts: the header went out first, so the download answered 200 and broke off.
  it("a topic filter of another workspace is refused before the first chunk, where the download can still answer 404", async () => {
    const a = await seedWorkspace(ctx);
    const b = await seedWorkspace(ctx);
    const topicOfB = await seedTopic(ctx, b.workspaceId, b.brandId);
    const chunks = exportContactsCsv(ctx, userActor(a.ownerUserId, a.workspaceId), { topicId: topicOfB });
    await expect(chunks.next()).rejects.toMatchObject({ code: "topic_not_found" });
    const own = exportContactsCsv(ctx, userActor(a.ownerUserId, a.workspaceId), { topicId: await seedTopic(ctx, a.workspaceId, a.brandId) });
    expect((await own.next()).value?.csv).toMatch(/^id,email,/);
  });
});

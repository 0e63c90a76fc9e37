import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { systemActor, userActor } from "@/lib/actor";
import { topics } from "@/lib/db/schema";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { archiveTopic } from "./archive-topic";
import { createTopic } from "./create-topic";
import { getTopicForActorOrThrow } from "./get-topic-for-actor";
import { listTopics } from "./list-topics";

const { ctx } = testCtx();
const operator = systemActor("test");
const page = { limit: 100, afterId: null };

async function tenants() {
  const a = await seedWorkspace(ctx);
  const b = await seedWorkspace(ctx);
  const topicOfA = await seedTopic(ctx, a.workspaceId, a.brandId);
  const topicOfB = await seedTopic(ctx, b.workspaceId, b.brandId);
  return { a, b, topicOfA, topicOfB, memberOfA: userActor(a.ownerUserId, a.workspaceId) };
}

const topicsIn = async (workspaceId: string) =>
  (await ctx.db.select().from(topics).where(eq(topics.workspaceId, workspaceId))).map((t) => t.id);

describe("topics are reached only from their own workspace", () => {
  it("getTopicForActorOrThrow: a member of workspace A cannot read workspace B's topic; the operator can", async () => {
    const { topicOfA, topicOfB, memberOfA } = await tenants();
    await expect(getTopicForActorOrThrow(ctx, memberOfA, topicOfB)).rejects.toMatchObject({ code: "topic_not_found" });
    expect((await getTopicForActorOrThrow(ctx, memberOfA, topicOfA)).id).toBe(topicOfA);
    expect((await getTopicForActorOrThrow(ctx, operator, topicOfB)).id).toBe(topicOfB);
  });

  it("listTopics: a member of workspace A sees A's topics only; the operator sees B's too", async () => {
    const { topicOfA, topicOfB, memberOfA } = await tenants();
    expect((await listTopics(ctx, memberOfA, page)).map((t) => t.id)).toEqual([topicOfA]);
    expect((await listTopics(ctx, operator, page)).map((t) => t.id)).toEqual(
      expect.arrayContaining([topicOfA, topicOfB]),
    );
  });

  it("archiveTopic: a member of workspace A cannot archive workspace B's topic; the operator can", async () => {
    const { topicOfB, memberOfA } = await tenants();
    await expect(archiveTopic(ctx, memberOfA, topicOfB)).rejects.toMatchObject({ code: "topic_not_found" });
    expect((await ctx.db.select().from(topics).where(eq(topics.id, topicOfB)))[0]!.archivedAt).toBeNull();
    await archiveTopic(ctx, operator, topicOfB);
    expect((await ctx.db.select().from(topics).where(eq(topics.id, topicOfB)))[0]!.archivedAt).not.toBeNull();
  });

  it("createTopic: a member of workspace A cannot create a topic on workspace B's brand; the operator must name a workspace", async () => {
    const { a, b, topicOfA, topicOfB, memberOfA } = await tenants();
    await expect(createTopic(ctx, memberOfA, { brandId: b.brandId, name: "Intruder" })).rejects.toMatchObject({
      code: "brand_not_found",
    });
    await expect(createTopic(ctx, operator, { brandId: b.brandId, name: "Nowhere" })).rejects.toMatchObject({
      code: "workspace_required",
    });
    expect(await topicsIn(a.workspaceId)).toEqual([topicOfA]);
    expect(await topicsIn(b.workspaceId)).toEqual([topicOfB]);
    const { topicId } = await createTopic(ctx, systemActor("test", b.workspaceId), {
      brandId: b.brandId,
      name: "Made by the operator",
    });
    expect(await topicsIn(b.workspaceId)).toEqual(expect.arrayContaining([topicOfB, topicId]));
  });
});

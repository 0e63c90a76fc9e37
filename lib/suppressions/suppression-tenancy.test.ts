import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { systemActor, userActor } from "@/lib/actor";
import { suppressionLifts, suppressions } from "@/lib/db/schema";
import { seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { createSuppression } from "./create-suppression";
import { deleteSuppression } from "./delete-suppression";
import { listSuppressions } from "./list-suppressions";

const { ctx } = testCtx();
const operator = systemActor("test");
const page = { limit: 100, afterId: null };

async function tenants() {
  const a = await seedWorkspace(ctx);
  const b = await seedWorkspace(ctx);
  const ofA = (await createSuppression(ctx, systemActor("test", a.workspaceId), { email: "a@blocked.example" }))
    .suppression.id;
  const ofB = (await createSuppression(ctx, systemActor("test", b.workspaceId), { email: "b@blocked.example" }))
    .suppression.id;
  return { a, b, ofA, ofB, memberOfA: userActor(a.ownerUserId, a.workspaceId) };
}

const idsIn = async (workspaceId: string) =>
  (await ctx.db.select().from(suppressions).where(eq(suppressions.workspaceId, workspaceId))).map((s) => s.id);

describe("suppressions are reached only from their own workspace", () => {
  it("createSuppression: the block is made in the actor's workspace; the operator must name a workspace", async () => {
    const { a, b, ofA, ofB, memberOfA } = await tenants();
    const { suppression } = await createSuppression(ctx, memberOfA, { email: "b@blocked.example" });
    expect(suppression).toMatchObject({ workspaceId: a.workspaceId, email: "b@blocked.example" });
    await expect(createSuppression(ctx, operator, { email: "c@blocked.example" })).rejects.toMatchObject({
      code: "workspace_required",
    });
    expect(await idsIn(b.workspaceId)).toEqual([ofB]);
    expect((await idsIn(a.workspaceId)).sort()).toEqual([ofA, suppression.id].sort());
  });

  it("deleteSuppression: a member of workspace A cannot lift workspace B's block; the operator can", async () => {
    const { b, ofB, memberOfA } = await tenants();
    await expect(deleteSuppression(ctx, memberOfA, ofB)).rejects.toMatchObject({ code: "suppression_not_found" });
    expect(await idsIn(b.workspaceId)).toEqual([ofB]);
    await deleteSuppression(ctx, operator, ofB, "Asked by the recipient");
    expect(await idsIn(b.workspaceId)).toEqual([]);
    // The lift is kept in B, with its reason and who lifted it.
    expect(
      await ctx.db
        .select({
          workspaceId: suppressionLifts.workspaceId,
          liftReason: suppressionLifts.liftReason,
          liftedBy: suppressionLifts.liftedBy,
        })
        .from(suppressionLifts)
        .where(eq(suppressionLifts.suppressionId, ofB)),
    ).toEqual([{ workspaceId: b.workspaceId, liftReason: "Asked by the recipient", liftedBy: "system:test" }]);
  });

  it("listSuppressions: a member of workspace A sees A's blocks only; the operator sees B's too", async () => {
    const { ofA, ofB, memberOfA } = await tenants();
    expect((await listSuppressions(ctx, memberOfA, page)).map((s) => s.id)).toEqual([ofA]);
    expect((await listSuppressions(ctx, operator, page)).map((s) => s.id)).toEqual(expect.arrayContaining([ofA, ofB]));
  });
});

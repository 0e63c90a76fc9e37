import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { systemActor, userActor } from "@/lib/actor";
import { brands } from "@/lib/db/schema";
import { seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { approveBrand } from "./approve-brand";
import { createBrand } from "./create-brand";
import { getBrandOrThrow } from "./get-brand-or-throw";
import { updateBrand } from "./update-brand";

const { ctx } = testCtx();
const operator = systemActor("test");

async function tenants() {
  const a = await seedWorkspace(ctx);
  const b = await seedWorkspace(ctx);
  return { a, b, memberOfA: userActor(a.ownerUserId, a.workspaceId) };
}

const brandOf = async (brandId: string) => (await ctx.db.select().from(brands).where(eq(brands.id, brandId)))[0]!;
const brandsIn = async (workspaceId: string) =>
  (await ctx.db.select().from(brands).where(eq(brands.workspaceId, workspaceId))).map((b) => b.id);
const input = {
  name: "New",
  legalName: "New Ltd",
  postalAddress: "1 Way",
  websiteUrl: "https://new.test",
  senderEmail: "hi@new.test",
};

describe("brands are reached only from their own workspace", () => {
  it("getBrandOrThrow: a member of workspace A cannot read workspace B's brand; the operator can", async () => {
    const { a, b, memberOfA } = await tenants();
    await expect(getBrandOrThrow(ctx, memberOfA, b.brandId)).rejects.toMatchObject({ code: "brand_not_found" });
    expect((await getBrandOrThrow(ctx, memberOfA, a.brandId)).id).toBe(a.brandId);
    expect((await getBrandOrThrow(ctx, operator, b.brandId)).id).toBe(b.brandId);
  });

  it("updateBrand: a member of workspace A cannot edit workspace B's brand; the operator can", async () => {
    const { b, memberOfA } = await tenants();
    const before = await brandOf(b.brandId);
    await expect(updateBrand(ctx, memberOfA, b.brandId, { legalName: "Taken Over Ltd" })).rejects.toMatchObject({
      code: "brand_not_found",
    });
    expect(await brandOf(b.brandId)).toEqual(before);
    const { brand } = await updateBrand(ctx, operator, b.brandId, { logoUrl: "https://b.test/logo.png" });
    expect(brand).toMatchObject({ id: b.brandId, logoUrl: "https://b.test/logo.png" });
  });

  it("approveBrand: a member of workspace A cannot approve workspace B's brand; the operator can", async () => {
    const { b, memberOfA } = await tenants();
    await expect(approveBrand(ctx, memberOfA, b.brandId)).rejects.toMatchObject({ code: "brand_not_found" });
    expect((await brandOf(b.brandId)).reviewStatus).toBe("pending");
    await approveBrand(ctx, operator, b.brandId);
    expect((await brandOf(b.brandId)).reviewStatus).toBe("approved");
  });

  it("createBrand: the brand is made in the actor's workspace; an input naming workspace B is refused, and so is the operator without a workspace", async () => {
    const { a, b, memberOfA } = await tenants();
    const namingB = { ...input, workspaceId: b.workspaceId };
    await expect(createBrand(ctx, memberOfA, namingB)).rejects.toMatchObject({
      code: "validation_failed",
      param: "workspaceId",
    });
    await expect(createBrand(ctx, operator, input)).rejects.toMatchObject({ code: "workspace_required" });
    expect(await brandsIn(b.workspaceId)).toEqual([b.brandId]);
    const { brandId } = await createBrand(ctx, memberOfA, input);
    expect((await brandOf(brandId)).workspaceId).toBe(a.workspaceId);
    const { brandId: made } = await createBrand(ctx, systemActor("test", b.workspaceId), input);
    expect((await brandOf(made)).workspaceId).toBe(b.workspaceId);
  });
});

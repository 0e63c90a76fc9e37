import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { brands } from "@/lib/db/schema";
import { seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { createBrand } from "./create-brand";
import { updateBrand } from "./update-brand";

const { ctx } = testCtx();
const identity = {
  name: "Sender Co",
  legalName: "Sender Co Ltd",
  postalAddress: "1 Way, Springfield",
  websiteUrl: "https://sender-co.test",
};

describe("a brand's sender address", () => {
  it("a sender at a free-mail provider is refused on its field when the brand is created, and nothing is stored", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const actor = systemActor("test", workspaceId);
    for (const senderEmail of ["news@gmail.com", "Hello@Outlook.com", "team@yahoo.co.uk", "me@proton.me"]) {
      await expect(createBrand(ctx, actor, { ...identity, senderEmail })).rejects.toMatchObject({
        code: "validation_failed",
        param: "senderEmail",
        message: expect.stringContaining("free mail provider"),
      });
    }
    expect(await ctx.db.select().from(brands).where(eq(brands.workspaceId, workspaceId))).toHaveLength(1);
  });

  it("a sender at the brand's own domain, or at a reserved example domain, is accepted", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const actor = systemActor("test", workspaceId);
    await expect(
      createBrand(ctx, actor, { ...identity, senderEmail: "news@mail.sender-co.test" }),
    ).resolves.toMatchObject({ brandId: expect.any(String) });
    await expect(createBrand(ctx, actor, { ...identity, senderEmail: "news@example.com" })).resolves.toMatchObject({
      brandId: expect.any(String),
    });
  });

  it("changing the sender to a free-mail address is refused; a brand that already has one can still change its cosmetics", async () => {
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    const actor = systemActor("test", workspaceId);
    await expect(updateBrand(ctx, actor, brandId, { senderEmail: "news@hotmail.com" })).rejects.toMatchObject({
      code: "validation_failed",
      param: "senderEmail",
    });
    // Made before senders were checked: its other fields stay editable, and it is not sent back to review.
    await ctx.db
      .update(brands)
      .set({ senderEmail: "old@gmail.com", reviewStatus: "approved" })
      .where(eq(brands.id, brandId));
    const { brand, identityEdited } = await updateBrand(ctx, actor, brandId, {
      primaryColor: "#123456",
      senderEmail: "old@gmail.com",
    });
    expect({ color: brand.primaryColor, identityEdited, review: brand.reviewStatus }).toEqual({
      color: "#123456",
      identityEdited: false,
      review: "approved",
    });
  });
});

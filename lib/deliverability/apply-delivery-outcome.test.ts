import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { getContactOrThrow } from "@/lib/contacts/contact-view";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { suppressions } from "@/lib/db/schema";
import { createSuppression } from "@/lib/suppressions/create-suppression";
import { deleteSuppression } from "@/lib/suppressions/delete-suppression";
import { seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { applyDeliveryOutcome, SOFT_BOUNCE_LIMIT } from "./apply-delivery-outcome";

const { ctx } = testCtx();

async function contact(email: string) {
  const { workspaceId } = await seedWorkspace(ctx);
  const { contact: created } = await upsertContact(ctx, systemActor("test", workspaceId), { email });
  const status = async () => (await getContactOrThrow(ctx, systemActor("test", workspaceId), created.id)).status;
  const reasons = async () =>
    (
      await ctx.db
        .select()
        .from(suppressions)
        .where(and(eq(suppressions.workspaceId, workspaceId), eq(suppressions.email, email)))
    ).map((s) => s.reason);
  return { workspaceId, status, reasons };
}

describe("delivery outcomes", () => {
  it("permanent bounce: status bounced, address suppressed automatically", async () => {
    const { workspaceId, status, reasons } = await contact("gone@example.com");
    expect(
      await applyDeliveryOutcome(ctx, workspaceId, "gone@example.com", { type: "bounced", bounceType: "permanent" }),
    ).toEqual({ suppressed: true });
    expect(await status()).toBe("bounced");
    expect(await reasons()).toEqual(["bounce"]);
  });

  it("complaint: status complained, address suppressed automatically, and the suppression cannot be removed", async () => {
    const { workspaceId, status, reasons } = await contact("angry@example.com");
    await applyDeliveryOutcome(ctx, workspaceId, "angry@example.com", { type: "complained" });
    expect(await status()).toBe("complained");
    expect(await reasons()).toEqual(["complaint"]);
    const [row] = await ctx.db.select().from(suppressions).where(eq(suppressions.email, "angry@example.com"));
    await expect(deleteSuppression(ctx, systemActor("test", workspaceId), row!.id)).rejects.toMatchObject({
      code: "suppression_not_removable",
    });
  });

  it("a complaint on an address already suppressed by hand still counts as a complaint", async () => {
    const { workspaceId, status, reasons } = await contact("manual@example.com");
    await createSuppression(ctx, systemActor("test", workspaceId), { email: "manual@example.com" });
    await applyDeliveryOutcome(ctx, workspaceId, "manual@example.com", { type: "complained" });
    expect(await reasons()).toEqual(["complaint"]);
    expect(await status()).toBe("complained");
    // And a later bounce does not weaken it.
    await applyDeliveryOutcome(ctx, workspaceId, "manual@example.com", { type: "bounced", bounceType: "permanent" });
    expect(await reasons()).toEqual(["complaint"]);
  });

  it("transient bounce: no change; repeated ones eventually suppress (5 in a row), a delivery in between resets the count", async () => {
    const { workspaceId, status, reasons } = await contact("flaky@example.com");
    const transient = () =>
      applyDeliveryOutcome(ctx, workspaceId, "flaky@example.com", { type: "bounced", bounceType: "transient" });
    for (let i = 0; i < SOFT_BOUNCE_LIMIT - 1; i++) expect(await transient()).toEqual({ suppressed: false });
    await applyDeliveryOutcome(ctx, workspaceId, "flaky@example.com", { type: "delivered" });
    for (let i = 0; i < SOFT_BOUNCE_LIMIT - 1; i++) await transient();
    expect(await reasons()).toEqual([]);
    expect(await status()).toBe("subscribed");
    expect(await transient()).toEqual({ suppressed: true });
    expect(await reasons()).toEqual(["soft_bounce"]);
  });
});

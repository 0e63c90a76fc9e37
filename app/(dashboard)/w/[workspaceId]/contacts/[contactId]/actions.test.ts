import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";

import { systemActor } from "@/lib/actor";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { subscriptions, users } from "@/lib/db/schema";
import { seedTopic, seedWorkspace, setBillingStage } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { editContactAction, unsubscribeOnBehalfAction } from "./actions";

const signedIn = vi.hoisted(() => ({ user: null as { id: string; email: string; name: string } | null }));
// The session cookie is Next.js's business; the member is signed in by hand, and the rest runs as in production.
vi.mock("@/lib/auth/current-user", () => ({
  currentUser: async () => signedIn.user,
  requireUser: async () => signedIn.user,
}));
vi.mock("next/cache", async (original) => ({
  ...(await original<typeof import("next/cache")>()),
  revalidatePath: () => {},
}));

const { ctx } = testCtx();

describe("opting out for the person in a workspace billing has made read-only", () => {
  it("the opt-out still goes through (nobody is kept on a list for an unpaid invoice), while other edits are refused", async () => {
    const { workspaceId, brandId, ownerUserId } = await seedWorkspace(ctx);
    const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
    const { contact } = await upsertContact(ctx, systemActor("test", workspaceId), {
      email: "ada@example.com",
      topicIds: [topicId],
    });
    const [owner] = await ctx.db.select().from(users).where(eq(users.id, ownerUserId));
    signedIn.user = { id: owner!.id, email: owner!.email, name: "Owner" };
    await setBillingStage(ctx, workspaceId, "read_only");

    const edit = await editContactAction(workspaceId, { contactId: contact.id, firstName: "Ada", lastName: "" });
    expect(edit.ok).toBe(false);
    const optOut = await unsubscribeOnBehalfAction(workspaceId, {
      contactId: contact.id,
      topicId,
      note: "asked by phone",
    });
    expect(optOut).toMatchObject({ ok: true });
    const [subscription] = await ctx.db.select().from(subscriptions).where(eq(subscriptions.contactId, contact.id));
    expect(subscription!.state).toBe("unsubscribed");
  });
});

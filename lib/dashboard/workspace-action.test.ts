import { describe, expect, it, vi } from "vitest";
import { z } from "zod";

import { validationFailed } from "@/lib/errors";
import { seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { workspaceAction } from "./workspace-action";

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

/** An action refusing what it was given with a message that starts with it, as a test mail's refusal does. */
const refusing = workspaceAction(z.strictObject({ to: z.string() }), async (_session, { to }) => {
  throw validationFailed("to", `to: ${to} is not one of your verified addresses.`);
});

async function signedInMember() {
  const ownerEmail = `owner-${Date.now()}@example.com`;
  const { workspaceId, ownerUserId } = await seedWorkspace(ctx, { ownerEmail });
  signedIn.user = { id: ownerUserId, email: ownerEmail, name: "Owner" };
  return workspaceId;
}

describe("a dashboard action's refusal, in the sender's words", () => {
  it("a message starting with an address keeps the address as it was typed, beside its field", async () => {
    const workspaceId = await signedInMember();
    const state = await refusing(workspaceId, { to: "owner@example.com" });
    expect(state).toMatchObject({
      ok: false,
      fieldErrors: { to: "owner@example.com is not one of your verified addresses." },
    });
  });

  it("a message in words starts with a capital beside its field, without the field's name", async () => {
    const workspaceId = await signedInMember();
    const words = workspaceAction(z.strictObject({ to: z.string() }), async () => {
      throw validationFailed("to", "to: a test goes only to a member of this workspace.");
    });
    expect(await words(workspaceId, { to: "someone@example.com" })).toMatchObject({
      ok: false,
      fieldErrors: { to: "A test goes only to a member of this workspace." },
    });
  });
});

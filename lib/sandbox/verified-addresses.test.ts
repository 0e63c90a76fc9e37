import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { listMailbox } from "@/lib/mail/list-mailbox";
import { seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";
import { createUser } from "@/lib/users/create-user";

import {
  addVerifiedAddress,
  confirmVerifiedAddress,
  describeVerifyAddressLink,
  listSandboxAddresses,
  removeVerifiedAddress,
  VERIFICATION_MAILS_PER_DAY,
  VERIFY_ADDRESS_VALID_MS,
} from "./verified-addresses";

const { ctx, clock } = testCtx();

const sandboxOf = async (workspaceId: string) =>
  (
    await ctx.db.execute<{ email: string }>(
      sql`select email from sandbox_recipients where workspace_id = ${workspaceId} order by email`,
    )
  ).map((row) => row.email);

async function linkMailedTo(email: string): Promise<string> {
  const [mail] = await listMailbox(ctx, systemActor("test"), { to: email });
  return mail!.links.find((link) => link.includes("/verify-address/"))!.split("/verify-address/")[1]!;
}

describe("verified addresses (the sandbox's recipients)", () => {
  it("a member's sign-in address counts once they have signed up (an invitation alone does not); an added address counts only once its owner follows the mailed link", async () => {
    const { workspaceId } = await seedWorkspace(ctx, { ownerEmail: "owner.sandbox@example.com" });
    const actor = systemActor("test", workspaceId);
    expect(await sandboxOf(workspaceId)).toEqual([]); // named owner, no password yet
    await createUser(ctx, { email: "owner.sandbox@example.com", password: "owner sandbox password" });
    expect(await sandboxOf(workspaceId)).toEqual(["owner.sandbox@example.com"]);
    expect(await addVerifiedAddress(ctx, actor, { email: "Seed@Example.com" })).toEqual({
      email: "seed@example.com",
      mailed: true,
    });
    expect(await listSandboxAddresses(ctx, actor)).toEqual([
      { email: "owner.sandbox@example.com", kind: "member", verifiedAt: expect.any(Date) },
      { email: "seed@example.com", kind: "added", verifiedAt: null },
    ]);
    expect(await sandboxOf(workspaceId)).toEqual(["owner.sandbox@example.com"]);

    const token = await linkMailedTo("seed@example.com");
    expect(await describeVerifyAddressLink(ctx, token)).toEqual({
      email: "seed@example.com",
      workspaceName: expect.any(String),
    });
    expect(await sandboxOf(workspaceId)).toEqual(["owner.sandbox@example.com"]); // opening the page changes nothing
    expect(await confirmVerifiedAddress(ctx, token)).toMatchObject({ email: "seed@example.com" });
    expect(await sandboxOf(workspaceId)).toEqual(["owner.sandbox@example.com", "seed@example.com"]);
    await expect(addVerifiedAddress(ctx, actor, { email: "seed@example.com" })).rejects.toMatchObject({
      code: "validation_failed",
      param: "email",
    });
  });

  it("confirmation links are limited: one per address per 10 minutes, 20 per workspace per day (the mail carries the workspace's chosen name)", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const actor = systemActor("test", workspaceId);
    await addVerifiedAddress(ctx, actor, { email: "again@example.com" });
    await expect(addVerifiedAddress(ctx, actor, { email: "again@example.com" })).rejects.toMatchObject({
      code: "rate_limited",
      param: "email",
    });
    // Refused attempts count too: "again" twice, then 18 more make 20.
    for (let i = 1; i <= VERIFICATION_MAILS_PER_DAY - 2; i++)
      await addVerifiedAddress(ctx, actor, { email: `many${i}@example.com` });
    await expect(addVerifiedAddress(ctx, actor, { email: "one-too-many@example.com" })).rejects.toMatchObject({
      code: "rate_limited",
    });
    expect(await listMailbox(ctx, systemActor("test"), { to: "one-too-many@example.com" })).toEqual([]);
  });

  it("a forged, altered or expired link confirms nothing", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    await addVerifiedAddress(ctx, systemActor("test", workspaceId), { email: "late@example.com" });
    const token = await linkMailedTo("late@example.com");
    expect(await confirmVerifiedAddress(ctx, `${token}x`)).toBeNull();
    clock.advance(VERIFY_ADDRESS_VALID_MS + 60_000);
    expect(await describeVerifyAddressLink(ctx, token)).toBeNull();
    expect(await confirmVerifiedAddress(ctx, token)).toBeNull();
    expect(await sandboxOf(workspaceId)).not.toContain("late@example.com");
  });

  it("tenancy: an address added by workspace A is not workspace B's, and B cannot remove it", async () => {
    const a = await seedWorkspace(ctx);
    const b = await seedWorkspace(ctx);
    await addVerifiedAddress(ctx, systemActor("test", a.workspaceId), { email: "shared@example.com" });
    await confirmVerifiedAddress(ctx, await linkMailedTo("shared@example.com"));
    expect(await sandboxOf(b.workspaceId)).not.toContain("shared@example.com");
    await expect(
      removeVerifiedAddress(ctx, systemActor("test", b.workspaceId), "shared@example.com"),
    ).rejects.toMatchObject({ code: "verified_address_not_found" });
    await removeVerifiedAddress(ctx, systemActor("test", a.workspaceId), "shared@example.com");
    expect(await sandboxOf(a.workspaceId)).not.toContain("shared@example.com");
  });
});

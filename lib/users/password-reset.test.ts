import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { listMailbox } from "@/lib/mail/list-mailbox";
import { testCtx } from "@/lib/testing/test-context";

import { createUser } from "./create-user";
import { findOrInviteUser } from "./find-or-invite-user";
import { describePasswordReset, PASSWORD_RESET_VALID_MS } from "./password-reset-link";
import { PASSWORD_RESETS_PER_ACCOUNT, PASSWORD_RESETS_PER_IP, requestPasswordReset } from "./request-password-reset";
import { resetPassword } from "./reset-password";
import { verifyCredentials } from "./verify-credentials";

const mailTo = (ctx: ReturnType<typeof testCtx>["ctx"], email: string) =>
  listMailbox(ctx, systemActor("test"), { to: email });
const tokenOf = (links: string[]) =>
  /\/reset-password\/([^/?#]+)$/.exec(links.find((link) => link.includes("/reset-password/"))!)![1]!;

/** Asks for a reset and waits for its mail, as the page does after answering. */
async function ask(ctx: ReturnType<typeof testCtx>["ctx"], email: string, ip: string): Promise<void> {
  const { mailing } = await requestPasswordReset(ctx, { email, ip });
  await mailing;
}

// Rate-limit rows outlive a test within this file: each test has its own addresses and IPs.
describe("forgotten passwords", () => {
  it("a reset link sets a new password once, and not after its hour", async () => {
    const { ctx, clock } = testCtx(new Date("2026-04-01T09:00:00.000Z"));
    const { userId } = await createUser(ctx, { email: "forgetful@example.com", password: "the old password" });
    await ask(ctx, " Forgetful@Example.com ", "198.51.100.10");
    const [mail] = await mailTo(ctx, "forgetful@example.com");
    expect(mail).toMatchObject({ subject: "Reset your password", serviceMail: "password_reset" });
    const token = tokenOf(mail!.links);
    expect(await describePasswordReset(ctx, token)).toEqual({ email: "forgetful@example.com" });

    await expect(resetPassword(ctx, { token, password: "short" })).rejects.toMatchObject({
      code: "validation_failed",
      param: "password",
    });
    expect(await resetPassword(ctx, { token, password: "a brand new password" })).toEqual({
      email: "forgetful@example.com",
    });
    expect(await verifyCredentials(ctx, "forgetful@example.com", "a brand new password")).toMatchObject({ id: userId });
    expect(await verifyCredentials(ctx, "forgetful@example.com", "the old password")).toBeNull();
    // Used: the same link sets nothing again.
    await expect(resetPassword(ctx, { token, password: "a third password" })).rejects.toMatchObject({
      code: "reset_link_invalid",
    });
    expect(await describePasswordReset(ctx, token)).toBeNull();

    clock.advance(60 * 60_000 + 1); // past the account's hourly limit, which is not under test here
    await ask(ctx, "forgetful@example.com", "198.51.100.10");
    const [later] = await mailTo(ctx, "forgetful@example.com");
    clock.advance(PASSWORD_RESET_VALID_MS + 1);
    await expect(
      resetPassword(ctx, { token: tokenOf(later!.links), password: "a late password" }),
    ).rejects.toMatchObject({ code: "reset_link_invalid" });
    expect(await verifyCredentials(ctx, "forgetful@example.com", "a brand new password")).toMatchObject({ id: userId });
  });

  it("a link asked for before the password changed otherwise no longer works", async () => {
    const { ctx } = testCtx(new Date("2026-04-01T10:00:00.000Z"));
    await createUser(ctx, { email: "twice@example.com", password: "the old password" });
    await ask(ctx, "twice@example.com", "198.51.100.11");
    await ask(ctx, "twice@example.com", "198.51.100.11");
    const [second, first] = await mailTo(ctx, "twice@example.com");
    await resetPassword(ctx, { token: tokenOf(second!.links), password: "a brand new password" });
    await expect(
      resetPassword(ctx, { token: tokenOf(first!.links), password: "an attacker's password" }),
    ).rejects.toMatchObject({ code: "reset_link_invalid" });
  });

  it("the answer is the same for an unknown address, and only an account with a password is mailed", async () => {
    const { ctx } = testCtx(new Date("2026-04-01T11:00:00.000Z"));
    await createUser(ctx, { email: "known@example.com", password: "the old password" });
    await findOrInviteUser(ctx, "invited-only@example.com");
    const known = await requestPasswordReset(ctx, { email: "known@example.com", ip: "198.51.100.12" });
    const unknown = await requestPasswordReset(ctx, { email: "nobody@example.com", ip: "198.51.100.12" });
    const invited = await requestPasswordReset(ctx, { email: "invited-only@example.com", ip: "198.51.100.12" });
    expect(Object.keys(known)).toEqual(Object.keys(unknown));
    expect(await known.mailing).toBeUndefined();
    expect(await unknown.mailing).toBeUndefined();
    expect(await invited.mailing).toBeUndefined();
    expect(await mailTo(ctx, "known@example.com")).toHaveLength(1);
    expect(await mailTo(ctx, "nobody@example.com")).toEqual([]);
    // An invited person sets their first password from the invitation's link, not from a reset.
    expect(await mailTo(ctx, "invited-only@example.com")).toEqual([]);
    await expect(requestPasswordReset(ctx, { email: "not an address", ip: "198.51.100.12" })).rejects.toMatchObject({
      code: "validation_failed",
      param: "email",
    });
  });

  it("reset requests are limited per address, from any IP, and per IP, for any address, whether or not the account exists", async () => {
    const { ctx, clock } = testCtx(new Date("2026-04-01T12:00:00.000Z"));
    await createUser(ctx, { email: "flooded@example.com", password: "the old password" });
    const limited = {
      code: "rate_limited",
      message: expect.stringMatching(/^Too many reset requests; try again in \d+ minutes?\.$/),
    };
    for (const email of ["flooded@example.com", "ghost@example.com"]) {
      for (let i = 0; i < PASSWORD_RESETS_PER_ACCOUNT; i++) await ask(ctx, email, `203.0.113.${i + 1}`);
      await expect(requestPasswordReset(ctx, { email: email.toUpperCase(), ip: "203.0.113.99" })).rejects.toMatchObject(
        limited,
      );
    }
    expect(await mailTo(ctx, "flooded@example.com")).toHaveLength(PASSWORD_RESETS_PER_ACCOUNT);

    for (let i = 0; i < PASSWORD_RESETS_PER_IP; i++) await ask(ctx, `someone-${i}@example.com`, "198.51.100.13");
    await expect(
      requestPasswordReset(ctx, { email: "someone-else@example.com", ip: "198.51.100.13" }),
    ).rejects.toMatchObject(limited);

    clock.advance(2 * 60 * 60_000);
    await ask(ctx, "flooded@example.com", "198.51.100.13");
    expect(await mailTo(ctx, "flooded@example.com")).toHaveLength(PASSWORD_RESETS_PER_ACCOUNT + 1);
  });
});

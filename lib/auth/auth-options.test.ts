import type { CredentialsConfig } from "next-auth/providers/credentials";
import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { listMailbox } from "@/lib/mail/list-mailbox";
import { testCtx } from "@/lib/testing/test-context";
import { createUser } from "@/lib/users/create-user";
import { requestPasswordReset } from "@/lib/users/request-password-reset";
import { resetPassword } from "@/lib/users/reset-password";
import { SIGN_IN_ATTEMPTS_PER_ACCOUNT } from "@/lib/users/sign-in-with-password";

import { authOptions } from "./auth-options";
import { isSignInLimitedMessage } from "./sign-in-limited-message";

// next-auth merges the provider's `options` over its defaults at run time; this is the authorize it calls.
const { authorize } = (authOptions.providers[0] as CredentialsConfig).options as CredentialsConfig;

describe("sign-in through next-auth", () => {
  it("a limited sign-in throws a message the sign-in form shows as is; a wrong password is a plain refusal", async () => {
    const { ctx } = testCtx();
    await createUser(ctx, { email: "form@example.com", password: "right password" });
    const request = { headers: {}, method: "POST" };
    expect(await authorize({ email: "form@example.com", password: "wrong" }, request)).toBeNull();
    for (let i = 1; i < SIGN_IN_ATTEMPTS_PER_ACCOUNT; i++)
      await authorize({ email: "form@example.com", password: "wrong" }, request);
    const refusal = await Promise.resolve(
      authorize({ email: "form@example.com", password: "right password" }, request),
    ).catch((error: Error) => error);
    expect(refusal).toBeInstanceOf(Error);
    expect(isSignInLimitedMessage((refusal as Error).message)).toBe(true);
    expect((refusal as Error).message).toMatch(/^Too many sign-in attempts; try again in \d+ minutes?\.$/);
  });
});

describe("sessions and password changes", () => {
  it("a session signed in before the password was reset ends with the reset; one signed in after goes on", async () => {
    const { ctx } = testCtx();
    const { userId } = await createUser(ctx, { email: "session@example.com", password: "the old password" });
    const jwt = authOptions.callbacks!.jwt!;
    const signedIn = await jwt({ token: {}, user: { id: userId }, account: null });
    expect(await jwt({ token: signedIn, account: null } as Parameters<typeof jwt>[0])).toMatchObject({ uid: userId });
    await (
      await requestPasswordReset(ctx, { email: "session@example.com", ip: "192.0.2.50" })
    ).mailing;
    const [mail] = await listMailbox(ctx, systemActor("test"), { to: "session@example.com" });
    await resetPassword(ctx, {
      token: /\/reset-password\/([^/?#]+)$/.exec(mail!.links[0]!)![1]!,
      password: "a brand new password",
    });
    expect(await jwt({ token: signedIn, account: null } as Parameters<typeof jwt>[0])).not.toHaveProperty("uid");
    const again = await jwt({ token: {}, user: { id: userId }, account: null });
    expect(await jwt({ token: again, account: null } as Parameters<typeof jwt>[0])).toMatchObject({ uid: userId });
  });
});

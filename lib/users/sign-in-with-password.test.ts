import { describe, expect, it } from "vitest";

import { testCtx } from "@/lib/testing/test-context";

import { createUser } from "./create-user";
import { SIGN_IN_ATTEMPTS_PER_ACCOUNT, SIGN_IN_ATTEMPTS_PER_IP, signInWithPassword } from "./sign-in-with-password";

const PASSWORD = "right password";
const limited = {
  code: "sign_in_rate_limited",
  message: expect.stringMatching(/^Too many sign-in attempts; try again in \d+ minutes?\.$/),
};

// Rate-limit rows outlive a test within this file: each test has its own accounts and IPs.
async function attempts(times: number, attempt: (i: number) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < times; i++) await attempt(i);
}

describe("sign-in limits", () => {
  it("the 11th attempt on one account within 15 minutes is refused before the password is checked, even the right one", async () => {
    const { ctx } = testCtx(new Date("2026-03-02T09:00:00.000Z"));
    const { userId } = await createUser(ctx, { email: "guessed@example.com", password: PASSWORD });
    await attempts(SIGN_IN_ATTEMPTS_PER_ACCOUNT - 1, () =>
      signInWithPassword(ctx, { email: "guessed@example.com", password: "wrong guess", ip: "198.51.100.1" }),
    );
    expect(
      await signInWithPassword(ctx, { email: "guessed@example.com", password: PASSWORD, ip: "198.51.100.1" }),
    ).toMatchObject({ id: userId });
    await expect(
      signInWithPassword(ctx, { email: "guessed@example.com", password: PASSWORD, ip: "198.51.100.1" }),
    ).rejects.toMatchObject(limited);
  });

  it("the account limit follows the normalised address, whatever IP the attempts come from", async () => {
    const { ctx } = testCtx(new Date("2026-03-02T10:00:00.000Z"));
    await createUser(ctx, { email: "rotated@example.com", password: PASSWORD });
    await attempts(SIGN_IN_ATTEMPTS_PER_ACCOUNT, (i) =>
      signInWithPassword(ctx, {
        email: i % 2 ? " Rotated@Example.com " : "ROTATED@example.com",
        password: "wrong guess",
        ip: `203.0.113.${i + 1}`,
      }),
    );
    await expect(
      signInWithPassword(ctx, { email: "rotated@example.com", password: PASSWORD, ip: "203.0.113.200" }),
    ).rejects.toMatchObject(limited);
  });

  it("another account, from the same IP, is not affected by one account's limit", async () => {
    const { ctx } = testCtx(new Date("2026-03-02T11:00:00.000Z"));
    await createUser(ctx, { email: "target@example.com", password: PASSWORD });
    const { userId } = await createUser(ctx, { email: "bystander@example.com", password: PASSWORD });
    await attempts(SIGN_IN_ATTEMPTS_PER_ACCOUNT, () =>
      signInWithPassword(ctx, { email: "target@example.com", password: "wrong guess", ip: "198.51.100.2" }),
    );
    await expect(
      signInWithPassword(ctx, { email: "target@example.com", password: PASSWORD, ip: "198.51.100.2" }),
    ).rejects.toMatchObject(limited);
    expect(
      await signInWithPassword(ctx, { email: "bystander@example.com", password: PASSWORD, ip: "198.51.100.2" }),
    ).toMatchObject({ id: userId });
  });

  it("more than 30 attempts from one IP within 15 minutes are refused, whatever the account", async () => {
    const { ctx } = testCtx(new Date("2026-03-02T12:00:00.000Z"));
    const { userId } = await createUser(ctx, { email: "sprayed@example.com", password: PASSWORD });
    await attempts(SIGN_IN_ATTEMPTS_PER_IP, (i) =>
      signInWithPassword(ctx, { email: `nobody-${i}@example.com`, password: PASSWORD, ip: "2001:db8::1" }),
    );
    await expect(
      signInWithPassword(ctx, { email: "sprayed@example.com", password: PASSWORD, ip: "2001:db8::1" }),
    ).rejects.toMatchObject(limited);
    expect(
      await signInWithPassword(ctx, { email: "sprayed@example.com", password: PASSWORD, ip: "2001:db8::2" }),
    ).toMatchObject({ id: userId });
  });

  it("the window slides: attempts of the previous 15 minutes weigh by how much of them still overlaps", async () => {
    const { ctx, clock } = testCtx(new Date("2026-03-02T13:00:00.000Z"));
    const { userId } = await createUser(ctx, { email: "patient@example.com", password: PASSWORD });
    const attempt = () =>
      signInWithPassword(ctx, { email: "patient@example.com", password: PASSWORD, ip: "198.51.100.3" });
    await attempts(SIGN_IN_ATTEMPTS_PER_ACCOUNT, attempt);
    await expect(attempt()).rejects.toMatchObject(limited);
    // A new window has begun, but nearly all of the 11 counted attempts still weigh: no reset on the boundary.
    clock.set(new Date("2026-03-02T13:15:10.000Z"));
    await expect(attempt()).rejects.toMatchObject(limited);
    // Halfway through it, half of them weigh (5.5) plus the two in this window: allowed again.
    clock.set(new Date("2026-03-02T13:22:30.000Z"));
    expect(await attempt()).toMatchObject({ id: userId });
  });

  it("the refusal says how long to wait, in minutes", async () => {
    const { ctx, clock } = testCtx(new Date("2026-03-02T14:00:00.000Z"));
    const attempt = () =>
      signInWithPassword(ctx, { email: "waiting@example.com", password: PASSWORD, ip: "198.51.100.4" });
    await attempts(SIGN_IN_ATTEMPTS_PER_ACCOUNT, attempt);
    clock.set(new Date("2026-03-02T14:14:00.000Z"));
    // 1 minute of this window left, then its 11 attempts (plus the next) must weigh 10 at most: 2.5 more minutes.
    await expect(attempt()).rejects.toMatchObject({ message: "Too many sign-in attempts; try again in 4 minutes." });
  });
});

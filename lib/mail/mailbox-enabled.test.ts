import { describe, expect, it } from "vitest";

import { parseEnv } from "@/lib/env";

import { mailboxEnabled, UNSET_MAIL_TRANSPORT_WARNING, unsetMailTransportWarning } from "./mailbox-enabled";

describe("the test mailbox is shown only where mail goes to the local transport, or in development", () => {
  it("production with smtp or resend hides it; with MAIL_TRANSPORT=local it is shown", () => {
    expect(mailboxEnabled(parseEnv({ NODE_ENV: "production", MAIL_TRANSPORT: "smtp" }))).toBe(false);
    expect(mailboxEnabled(parseEnv({ NODE_ENV: "production", MAIL_TRANSPORT: "resend" }))).toBe(false);
    expect(mailboxEnabled(parseEnv({ NODE_ENV: "production", MAIL_TRANSPORT: "local" }))).toBe(true);
  });

  it("development and tests show it whatever the transport", () => {
    expect(mailboxEnabled(parseEnv({ NODE_ENV: "development", MAIL_TRANSPORT: "smtp" }))).toBe(true);
    expect(mailboxEnabled(parseEnv({ NODE_ENV: "test", MAIL_TRANSPORT: "resend" }))).toBe(true);
    expect(mailboxEnabled(parseEnv({}))).toBe(true);
  });

  it("production without MAIL_TRANSPORT falls back to local: the mailbox stays (the only place mail goes) and start warns", () => {
    expect(mailboxEnabled(parseEnv({ NODE_ENV: "production" }))).toBe(true);
    expect(mailboxEnabled(parseEnv({ NODE_ENV: "production", MAIL_TRANSPORT: "" }))).toBe(true);
    expect(unsetMailTransportWarning(parseEnv({ NODE_ENV: "production" }))).toBe(UNSET_MAIL_TRANSPORT_WARNING);
    expect(UNSET_MAIL_TRANSPORT_WARNING).toMatch(
      /^MAIL_TRANSPORT is not set: mail is stored in the local test mailbox and delivered to nobody/,
    );
  });

  it("no warning once a transport is named, nor outside production", () => {
    for (const name of ["local", "smtp", "resend"])
      expect(unsetMailTransportWarning(parseEnv({ NODE_ENV: "production", MAIL_TRANSPORT: name }))).toBeNull();
    expect(unsetMailTransportWarning(parseEnv({ NODE_ENV: "development" }))).toBeNull();
  });
});

import { describe, expect, it } from "vitest";

import { refusalOf, temporarySmtpAnswer } from "./refusal";

describe("refusals", () => {
  it("SMTP 421, 450, 451, 452 and 454 are temporary, and so is a provider's rate-limit answer under a 5xx code", () => {
    for (const code of [421, 450, 451, 452, 454]) expect(temporarySmtpAnswer(code, "try later")).toBe(true);
    expect(temporarySmtpAnswer(550, "5.7.1 Our system has detected an unusual rate of unsolicited mail")).toBe(false);
    expect(temporarySmtpAnswer(550, "5.4.5 Daily sending rate limit exceeded")).toBe(true);
    expect(temporarySmtpAnswer(554, "[TSS04] Messages from 1.2.3.4 temporarily deferred")).toBe(true);
    expect(temporarySmtpAnswer(550, "5.1.1 The email account that you tried to reach does not exist")).toBe(false);
  });

  it("an error with no SMTP answer (a connection that failed) is not a refusal of the message", () => {
    expect(refusalOf(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNECTION" }))).toBeNull();
    expect(refusalOf(Object.assign(new Error("x"), { responseCode: 451, response: "451 4.7.1 Try again" }))).toEqual({
      refused: { code: 451, response: "451 4.7.1 Try again", temporary: true },
    });
  });
});

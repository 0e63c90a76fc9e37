import { describe, expect, it } from "vitest";

import { overrideEnvForTests, reloadEnv } from "@/lib/env";

import { signToken, verifyToken } from "./signed-token";

describe("signed link tokens", () => {
  it("a token verifies for its purpose and gives back its payload", () => {
    const token = signToken("unsubscribe", { c: "ct_1", t: "tp_1" });
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(verifyToken("unsubscribe", token)).toEqual({ c: "ct_1", t: "tp_1" });
  });

  it("every link is a signed token: a forged or altered token is refused", () => {
    const token = signToken("unsubscribe", { c: "ct_1", t: "tp_1" });
    const [payload, signature] = token.split(".");
    const altered = Buffer.from(JSON.stringify({ c: "ct_2", t: "tp_1" })).toString("base64url");
    // The signature's last two characters changed (to BB should they already be AA).
    const resigned = `${payload}.${signature!.slice(0, -2)}${signature!.endsWith("AA") ? "BB" : "AA"}`;
    for (const bad of [`${altered}.${signature}`, resigned, payload!, `${token}.x`, "", "not-a-token"]) {
      expect(verifyToken("unsubscribe", bad), bad).toBeNull();
    }
  });

  it("a token made for one purpose does not work for another", () => {
    const confirm = signToken("confirm", { r: "cfr_1" });
    expect(verifyToken("unsubscribe", confirm)).toBeNull();
    expect(verifyToken("preferences", confirm)).toBeNull();
    expect(verifyToken("confirm", confirm)).toEqual({ r: "cfr_1" });
  });

  it("tokens depend on TOKEN_SECRET", () => {
    const token = signToken("confirm", { r: "cfr_1" });
    overrideEnvForTests({ TOKEN_SECRET: "another secret" });
    try {
      expect(verifyToken("confirm", token)).toBeNull();
    } finally {
      reloadEnv();
    }
  });
});

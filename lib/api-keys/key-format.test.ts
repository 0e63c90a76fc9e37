import { describe, expect, it } from "vitest";

import { generateKey, hashKey, parseKey } from "./key-format";

describe("API key format", () => {
  it("key prefixes are sk_live_, sk_test_, pk_live_, pk_test_", () => {
    expect(generateKey("secret", "live")).toMatch(/^sk_live_[0-9A-Za-z]{46}$/);
    expect(generateKey("secret", "test")).toMatch(/^sk_test_/);
    expect(generateKey("publishable", "live")).toMatch(/^pk_live_/);
    expect(generateKey("publishable", "test")).toMatch(/^pk_test_/);
  });

  it("a generated key parses back to its kind and environment", () => {
    expect(parseKey(generateKey("publishable", "test"))).toEqual({ kind: "publishable", environment: "test" });
    expect(parseKey(generateKey("secret", "live"))).toEqual({ kind: "secret", environment: "live" });
  });

  it("the checksum rejects a mistyped key without a database look-up", () => {
    const key = generateKey("secret", "live");
    const i = 20;
    const typo = key.slice(0, i) + (key[i] === "a" ? "b" : "a") + key.slice(i + 1);
    expect(parseKey(typo)).toBeNull();
    expect(parseKey(key.slice(0, -1))).toBeNull();
    expect(parseKey(key.replace("sk_live_", "sk_prod_"))).toBeNull();
  });

  it("keys are random and only their SHA-256 is stored", () => {
    const a = generateKey("secret", "live");
    const b = generateKey("secret", "live");
    expect(a).not.toBe(b);
    expect(hashKey(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashKey(a)).not.toContain(a.slice(8, 20));
  });
});

import { describe, expect, it } from "vitest";

import { isValidDomain, isValidEmail, normalizeEmail } from "./email-address";

describe("email addresses", () => {
  it("are normalised by trimming, NFC and lower-casing the whole address", () => {
    expect(normalizeEmail("  Ann.Lee@Example.COM ")).toBe("ann.lee@example.com");
    expect(normalizeEmail("jose\u0301@example.com")).toBe("jos\u00e9@example.com");
  });

  it("accept ordinary, plus-tagged and IDN addresses", () => {
    for (const email of [
      "a@b.co",
      "first.last+tag@example.com",
      "o'neil@example.ie",
      "user@bücher.de",
      "x@sub.domain.example",
    ]) {
      expect(isValidEmail(email), email).toBe(true);
    }
  });

  it("refuse malformed addresses", () => {
    for (const email of [
      "",
      "plain",
      "@example.com",
      "a@",
      "a@b",
      "a..b@example.com",
      ".a@example.com",
      "a b@example.com",
      "a@-b.com",
      "a@1.2.3.4",
      "a@b_c.com",
    ]) {
      expect(isValidEmail(email), email).toBe(false);
    }
  });

  it("email is at most 320 characters, local part 64, domain 255", () => {
    const label = "d".repeat(63);
    expect(isValidEmail(`${"l".repeat(64)}@example.com`)).toBe(true);
    expect(isValidEmail(`${"l".repeat(65)}@example.com`)).toBe(false);
    const domain255 = [label, label, label, "d".repeat(59), "com"].join(".");
    expect(domain255).toHaveLength(255);
    expect(isValidEmail(`a@${domain255}`)).toBe(true);
    // One character more, every label still good.
    expect(isValidEmail(`a@${[label, label, label, "d".repeat(60), "com"].join(".")}`)).toBe(false);
  });

  it("an ASCII address or domain is judged by the same rules as any other: local part, labels, lengths, a top-level domain not all digits", () => {
    // The rules written out label by label, as the general (Unicode) path applies them.
    const domainFollows = (domain: string) => {
      const labels = domain.split(".");
      return (
        domain.length <= 255 &&
        labels.length >= 2 &&
        labels.every((l) => /^[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?$/u.test(l)) &&
        !/^\d+$/.test(labels.at(-1)!)
      );
    };
    const emailFollows = (email: string) => {
      const at = email.lastIndexOf("@");
      const local = email.slice(0, at);
      return (
        email.length <= 320 &&
        at > 0 &&
        local.length <= 64 &&
        /^[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+(\.[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+)*$/u.test(local) &&
        domainFollows(email.slice(at + 1))
      );
    };
    // Pseudo-random strings over the characters that matter, with runs long enough to cross each length limit.
    const pieces = [
      "a",
      "Z",
      "0",
      "7",
      "-",
      ".",
      "@",
      "+",
      "_",
      " ",
      "'",
      "é",
      "ü",
      "\n",
      "x".repeat(30),
      "9".repeat(3),
      "ab.",
      ".c",
      "-d",
      "@e.f",
    ];
    let seed = 42;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let i = 0; i < 20_000; i++) {
      let candidate = "";
      for (let n = random(14); n > 0; n--) candidate += pieces[random(pieces.length)];
      // A domain of good labels near the 255-character limit.
      const long = Array.from({ length: 3 + random(3) }, () => "d".repeat(40 + random(24))).join(".") + ".com";
      for (const text of [
        candidate,
        `${candidate}@example.com`,
        `user@${candidate}`,
        `${"l".repeat(random(70))}@${candidate}.${"d".repeat(random(70))}.com`,
        `a@${long}`,
      ]) {
        expect(isValidEmail(text), JSON.stringify(text)).toBe(emailFollows(text));
        expect(isValidDomain(text), JSON.stringify(text)).toBe(text.length > 0 && domainFollows(text));
      }
    }
  });
});

import { describe, expect, it } from "vitest";
import { isValidEmail, normalizeEmail } from "./email-address";

describe("email addresses", () => {
  it("are normalised by trimming, NFC and lower-casing the whole address", () => {
    expect(normalizeEmail("  Ann.Lee@Example.COM ")).toBe("ann.lee@example.com");
    expect(normalizeEmail("jose\u0301@example.com")).toBe("jos\u00e9@example.com");
  });

  it("accept ordinary, plus-tagged and IDN addresses", () => {
    for (const email of ["a@b.co", "first.last+tag@example.com", "o'neil@example.ie", "user@bücher.de", "x@sub.domain.example"]) {
      expect(isValidEmail(email), email).toBe(true);
    }
  });

  it("refuse malformed addresses", () => {
    for (const email of ["", "plain", "@example.com", "a@", "a@b", "a..b@example.com", ".a@example.com", "a b@example.com", "a@-b.com", "a@1.2.3.4", "a@b_c.com"]) {
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
    expect(isValidEmail(`a@d${domain255}`)).toBe(false);
  });
});

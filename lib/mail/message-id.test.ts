import { describe, expect, it } from "vitest";

import { overrideEnvForTests, reloadEnv } from "@/lib/env";

import { readMessageId, signedMessageId } from "./message-id";

// RFC 5322 msg-id: "<" dot-atom-text "@" dot-atom-text ">", with no whitespace or comments.
const ATEXT = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const MSG_ID = new RegExp(`^<${ATEXT}(\\.${ATEXT})*@${ATEXT}(\\.${ATEXT})*>$`);

describe("signed Message-IDs", () => {
  it("a message's id carries its key and a signature, is a valid msg-id, and is the same each time it is made", () => {
    const id = signedMessageId("snd_01kb2x3y4z", "brand.example");
    expect(id).toMatch(/^<snd_01kb2x3y4z\.[0-9a-f]{32}@brand\.example>$/);
    expect(id).toMatch(MSG_ID);
    expect(signedMessageId("snd_01kb2x3y4z", "brand.example")).toBe(id);
    expect(readMessageId(id)).toBe("snd_01kb2x3y4z");
    expect(readMessageId(` ${id}\r\n`)).toBe("snd_01kb2x3y4z");
  });

  it("a quoted Message-ID names nothing unless its signature verifies: the unsigned old form, a guessed neighbour, an altered or borrowed signature", () => {
    const id = signedMessageId("snd_01kb2x3y4z", "brand.example");
    const signature = id.match(/\.([0-9a-f]{32})@/)![1]!;
    // One digit of the signature changed (to another digit: a 0 becomes a 1).
    const altered = id.replace(`.${signature}`, `.${signature[0] === "0" ? "1" : "0"}${signature.slice(1)}`);
    expect(altered).not.toBe(id);
    for (const forged of [
      "<snd_01kb2x3y4z@brand.example>",
      altered,
      id.replace("snd_01kb2x3y4z", "snd_01kb2x3y50"), // the next send's id with this one's signature
      id.replace(signature, signature.slice(0, 16)),
      "",
      "<>",
    ]) {
      expect(readMessageId(forged), forged).toBeNull();
    }
  });

  it("the signature depends on TOKEN_SECRET", () => {
    const id = signedMessageId("snd_01kb2x3y4z", "brand.example");
    overrideEnvForTests({ TOKEN_SECRET: "another secret" });
    try {
      expect(readMessageId(id)).toBeNull();
    } finally {
      reloadEnv();
    }
  });

  it("a key that could not stand in a msg-id still makes a valid one", () => {
    for (const key of ["has space", "a@b", "<x>", "dots.in.it", "é", "x".repeat(300)]) {
      const id = signedMessageId(key, "brand.example");
      expect(id, key).toMatch(MSG_ID);
      expect(readMessageId(id), key).not.toBeNull();
      expect(signedMessageId(key, "brand.example")).toBe(id);
    }
  });
});

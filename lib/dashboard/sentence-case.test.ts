import { describe, expect, it } from "vitest";

import { sentenceCase } from "./sentence-case";

describe("a message read as a sentence", () => {
  it("a message in words starts with a capital", () => {
    expect(sentenceCase("must not be empty")).toBe("Must not be empty");
    expect(sentenceCase("pick a time in the future")).toBe("Pick a time in the future");
    expect(sentenceCase("Already a sentence.")).toBe("Already a sentence.");
  });

  it("a message starting with an address, a merge tag, a link or a code keeps its first word as it was typed", () => {
    expect(sentenceCase("owner@example.com has no value for {{contact.first_name}}")).toBe(
      "owner@example.com has no value for {{contact.first_name}}",
    );
    expect(sentenceCase("{{contact.favourite}} is not a merge tag")).toBe("{{contact.favourite}} is not a merge tag");
    expect(sentenceCase("https://example.com answered 404")).toBe("https://example.com answered 404");
    expect(sentenceCase("mail.example.com is not verified")).toBe("mail.example.com is not verified");
    expect(sentenceCase("missing_merge_tag:contact.plan")).toBe("missing_merge_tag:contact.plan");
  });
});

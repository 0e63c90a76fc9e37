import { describe, expect, it } from "vitest";

import { mergeTagsIn } from "@/lib/campaigns/merge-tag-names";

import { STARTER_DOCUMENT } from "./email-extensions";
import { renderDocument } from "./render-document";

describe("a new campaign's starter document", () => {
  it("uses no merge tag a contact may lack: with no default values, such a tag would skip whoever lacks it", async () => {
    const { html, text } = await renderDocument(STARTER_DOCUMENT, { name: "Acme", logoUrl: null });
    const contactTags = [html, text]
      .flatMap(mergeTagsIn)
      .filter((tag) => tag.startsWith("contact.") && tag !== "contact.email");
    expect(contactTags).toEqual([]);
  });
});

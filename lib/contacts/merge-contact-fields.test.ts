import { describe, expect, it } from "vitest";

import { mergeContactFields } from "./merge-contact-fields";

describe("merging a repeated address's fields", () => {
  it("an attribute the contact does not have is blank under every policy, even one named constructor", () => {
    const stored = { firstName: "Ada", lastName: null, attributes: {} };
    for (const policy of ["keep_existing", "overwrite", "per_field"] as const) {
      expect(mergeContactFields(policy, stored, { attributes: { constructor: "Analytical" } }).attributes).toEqual({
        constructor: "Analytical",
      });
    }
  });
});

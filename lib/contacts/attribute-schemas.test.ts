import { describe, expect, it } from "vitest";

import { guessAttributeType } from "./attribute-schemas";

describe("the type a column suggests for a new attribute", () => {
  it("a column's type is the one all its non-empty cells have: yes/no words, then numbers, then dates, else text", () => {
    expect(guessAttributeType(["yes", "No", "", "TRUE"])).toBe("boolean");
    expect(guessAttributeType(["0", "1", "1"])).toBe("number");
    expect(guessAttributeType(["12", "-3.5", " 4 "])).toBe("number");
    expect(guessAttributeType(["2024-05-01", "2023-12-31T08:00:00Z"])).toBe("date");
    expect(guessAttributeType(["2024-05-01", "soon"])).toBe("string");
    expect(guessAttributeType(["Lyon", "12"])).toBe("string");
    expect(guessAttributeType(["", "  "])).toBe("string");
  });
});

import { describe, expect, it } from "vitest";

import { keyReachesBrand } from "./key-brand-scope";

describe("key brand scope", () => {
  it("a key locked to a brand reaches that brand only; an unlocked key reaches every brand", () => {
    expect(keyReachesBrand({ brandId: "brd_a" }, "brd_a")).toBe(true);
    expect(keyReachesBrand({ brandId: "brd_a" }, "brd_b")).toBe(false);
    expect(keyReachesBrand({ brandId: null }, "brd_b")).toBe(true);
  });
});

import { describe, expect, it } from "vitest";
import { RepeatedAddresses } from "./repeated-addresses";

describe("repeated addresses in a file", () => {
  it("every row of an address that occurs more than once is listed, each once, also once the table outgrows the expected count", () => {
    const repeated = new RepeatedAddresses(10);
    const rowsOfRepeated = new Set<number>();
    let row = 1;
    for (let i = 0; i < 5000; i++) {
      // Every seventh address comes two, three or four times.
      const times = i % 7 === 0 ? 2 + (i % 3) : 1;
      for (let time = 0; time < times; time++) {
        repeated.add(`person${i}@example.com`, ++row);
        if (times > 1) rowsOfRepeated.add(row);
      }
    }
    expect(repeated.rows.toSorted((a, b) => a - b)).toEqual([...rowsOfRepeated]);
  });

  it("rows whose addresses only share a hash are listed, for the database to rule out", () => {
    // These two have the same 32-bit FNV-1a hash.
    const repeated = new RepeatedAddresses(8);
    repeated.add("person99238@example.com", 2);
    repeated.add("person517802@example.com", 3);
    expect(repeated.rows).toEqual([2, 3]);
    expect(repeated.repeats).toEqual({ earlierRows: [2], laterRows: [3], addresses: ["person517802@example.com"] });
  });

  it("beyond a quarter of the expected rows listed, the rows are for the database to group and no repeat is kept", () => {
    const repeated = new RepeatedAddresses(8);
    repeated.add("a@example.com", 2);
    repeated.add("a@example.com", 3);
    expect(repeated.listable).toBe(true);
    repeated.add("b@example.com", 4);
    repeated.add("b@example.com", 5);
    expect(repeated.listable).toBe(false);
    expect(repeated.rows).toEqual([2, 3, 4, 5]);
    expect(repeated.repeats.earlierRows).toEqual([2]);
  });
});

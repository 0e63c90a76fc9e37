import { describe, expect, it } from "vitest";

import { RepeatedAddresses } from "./repeated-addresses";

describe("repeated addresses in a file", () => {
  it("every repeat of an address is kept with the row before it and its address, also once the table outgrows the expected count", () => {
    // 1,000 expected rows: the table starts with 2,048 slots and grows twice for 5,000 addresses.
    const repeated = new RepeatedAddresses(1000);
    const expected: RepeatedAddresses["repeats"] = { earlierRows: [], laterRows: [], addresses: [] };
    let row = 1;
    for (let i = 0; i < 5000; i++) {
      // Every seventieth address comes two, three or four times.
      const times = i % 70 === 0 ? 2 + (i % 3) : 1;
      const address = `person${i}@example.com`;
      for (let time = 0; time < times; time++) {
        repeated.add(address, ++row);
        if (time === 0) continue;
        expected.earlierRows.push(row - 1);
        expected.laterRows.push(row);
        expected.addresses.push(address);
      }
    }
    expect(repeated.listable).toBe(true);
    expect(repeated.repeats).toEqual(expected);
  });

  it("rows whose addresses only share a hash are kept as a repeat, for the database to rule out", () => {
    // These two have the same 32-bit FNV-1a hash.
    const repeated = new RepeatedAddresses(8);
    repeated.add("person99238@example.com", 2);
    repeated.add("person517802@example.com", 3);
    expect(repeated.repeats).toEqual({ earlierRows: [2], laterRows: [3], addresses: ["person517802@example.com"] });
  });

  it("beyond a quarter of the expected rows in chains of repeats, the rows are for the database to group and no repeat is kept", () => {
    const repeated = new RepeatedAddresses(12);
    repeated.add("a@example.com", 2);
    repeated.add("a@example.com", 3);
    repeated.add("a@example.com", 4);
    expect(repeated.listable).toBe(true); // three rows in chains: a quarter of twelve
    repeated.add("b@example.com", 5);
    repeated.add("b@example.com", 6);
    expect(repeated.listable).toBe(false);
    expect(repeated.repeats.earlierRows).toEqual([2, 3]);
  });
});

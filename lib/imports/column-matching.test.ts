import { describe, expect, it } from "vitest";

import { autoMap, editDistance, normaliseName } from "./column-matching";
import type { ImportField } from "./import-fields";

const builtIn: ImportField[] = [
  { key: "email", label: "Email address", type: null },
  { key: "first_name", label: "First name", type: null },
  { key: "last_name", label: "Last name", type: null },
  { key: "time_zone", label: "Time zone", type: null },
];
const withAttributes = (...keys: string[]): ImportField[] => [
  ...builtIn,
  ...keys.map((key) => ({ key: `attributes.${key}`, label: key, type: "string" as const })),
];

describe("matching a file's columns to fields", () => {
  it("a name is normalised: trimmed, accents dropped, lower-case, each run of other characters one _, none at the ends", () => {
    expect(normaliseName("  Favourite roast ")).toBe("favourite_roast");
    expect(normaliseName("Prénom")).toBe("prenom");
    expect(normaliseName("--Date of birth (UTC)--")).toBe("date_of_birth_utc");
    expect(normaliseName("ＣＩＴＹ")).toBe("city");
    expect(normaliseName("***")).toBe("");
  });

  it("edit distance counts the fewest insertions, deletions and substitutions", () => {
    expect(editDistance("favourite_roast", "favorite_roast")).toBe(1);
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("same", "same")).toBe(0);
  });

  it("a column matches an attribute whose key is its normalised name", () => {
    const fields = withAttributes("favourite_roast", "city");
    expect(autoMap(["Email", "Favourite roast", " CITY "], fields)).toEqual([
      "email",
      "attributes.favourite_roast",
      "attributes.city",
    ]);
  });

  it("the built-in fields match their usual names under the same normalisation", () => {
    expect(autoMap(["E-mail", "Prénom", "Last Name", "Email Address"], builtIn)).toEqual([
      "email",
      "first_name",
      "last_name",
      "",
    ]);
    expect(autoMap(["Email Address", "First Name", "Surname"], builtIn)).toEqual(["email", "first_name", "last_name"]);
  });

  it("a contact's time zone matches its usual names, and an attribute of the workspace named zone keeps its own column", () => {
    expect(autoMap(["email", "Time zone"], builtIn)).toEqual(["email", "time_zone"]);
    expect(autoMap(["email", "TZ"], builtIn)).toEqual(["email", "time_zone"]);
    expect(autoMap(["email", "Timezone", "zone"], withAttributes("zone"))).toEqual([
      "email",
      "time_zone",
      "attributes.zone",
    ]);
  });

  it("without an exact match, a column fills the one attribute one edit from its name when both have at least 6 characters", () => {
    expect(autoMap(["Email", "Favourite roast"], withAttributes("favorite_roast"))).toEqual([
      "email",
      "attributes.favorite_roast",
    ]);
    // Shorter names are too short to guess at: "Citi" is not city.
    expect(autoMap(["Email", "Citi"], withAttributes("city"))).toEqual(["email", ""]);
    // Two edits away is another name.
    expect(autoMap(["Email", "Favourite roasts"], withAttributes("favorite_roast"))).toEqual(["email", ""]);
  });

  it("a column one edit from two attributes fills neither", () => {
    expect(autoMap(["Email", "Colour"], withAttributes("color", "colours", "colourx"))).toEqual(["email", ""]);
  });

  it("an exact match wins over a near one, whatever the order of the columns", () => {
    expect(autoMap(["Favourite roast", "favorite_roast", "Email"], withAttributes("favorite_roast"))).toEqual([
      "",
      "attributes.favorite_roast",
      "email",
    ]);
  });

  it("a field is filled by one column at most: a repeated header fills it once", () => {
    expect(autoMap(["Email", "email", "City", "city"], withAttributes("city"))).toEqual([
      "email",
      "",
      "attributes.city",
      "",
    ]);
  });
});

import { describe, expect, it } from "vitest";

import { attributeText } from "./attribute-text";
import {
  contactListQuerySchema,
  contactListSearchParams,
  readContactListQuery,
  shownAttributeColumns,
} from "./contact-list-query";

describe("the contacts table's URL", () => {
  it("a value that does not parse is left out, the rest kept: a hand-edited URL shows a table, not an error", () => {
    expect(
      readContactListQuery({
        q: "  ada ",
        status: "asleep",
        sort: "email",
        topic: "",
        list: ["ls_1", "ls_2"],
        after: "ct_1",
      }),
    ).toEqual({ q: "ada", sort: "email", after: "ct_1" });
  });

  it("the query writes back to the same URL parameters, without the empty ones", () => {
    const query = readContactListQuery({ q: "ada", status: "bounced", sort: "oldest" });
    expect(contactListSearchParams(query).toString()).toBe("q=ada&status=bounced&sort=oldest");
    expect(readContactListQuery(Object.fromEntries(contactListSearchParams(query)))).toEqual(query);
  });

  it("chosen columns keep attribute keys only, once each, in the order given, and survive the round trip through the URL", () => {
    const query = readContactListQuery({ columns: "plan, city,Plan,plan,../x,,2fa,city" });
    expect(query.columns).toEqual(["plan", "city"]);
    expect(contactListSearchParams(query).toString()).toBe("columns=plan%2Ccity");
    expect(readContactListQuery(Object.fromEntries(contactListSearchParams(query)))).toEqual(query);
    expect(readContactListQuery({ columns: ",,Nope" })).toEqual({});
    expect(contactListQuerySchema.parse({ columns: "plan" })).toEqual({ columns: ["plan"] });
  });

  it("a chosen column the workspace has not defined is not shown", () => {
    const defined = [
      { key: "city", type: "string" as const },
      { key: "plan", type: "string" as const },
    ];
    expect(shownAttributeColumns(["plan", "removed", "city"], defined).map((column) => column.key)).toEqual([
      "plan",
      "city",
    ]);
    expect(shownAttributeColumns(undefined, defined)).toEqual([]);
  });

  it("the old sort values of shared links still sort, and the new orders are read", () => {
    for (const sort of ["newest", "oldest", "email", "email_desc", "name", "name_desc", "status", "status_desc"])
      expect(readContactListQuery({ sort })).toEqual({ sort });
  });
});

describe("an attribute column's values", () => {
  it("read by the attribute's type: thousands, Yes/No, a day as written, an instant in UTC, nothing as null", () => {
    expect(attributeText("number", 1234567.5)).toBe("1,234,567.5");
    expect(attributeText("boolean", false)).toBe("No");
    expect(attributeText("date", "2024-05-01")).toBe("2024-05-01");
    expect(attributeText("date", "2024-05-01T10:30:00+02:00")).toBe("2024-05-01 08:30 UTC");
    expect(attributeText("string", "Pro")).toBe("Pro");
    expect(attributeText("string", undefined)).toBeNull();
  });
});

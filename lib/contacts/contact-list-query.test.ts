import { describe, expect, it } from "vitest";

import { contactListSearchParams, readContactListQuery } from "./contact-list-query";

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
});

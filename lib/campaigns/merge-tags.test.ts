import { describe, expect, it } from "vitest";

import { assertKnownMergeTags, mergeTagsIn, renderMergeTags } from "./merge-tags";

const values = (map: Record<string, string | null>) => (tag: string) => map[tag];

describe("merge tags", () => {
  it("contact.email, first_name, last_name, custom attributes and the four brand tags are merge tags", () => {
    const attributes = new Set(["plan"]);
    expect(() =>
      assertKnownMergeTags(
        {
          subject: "Hi {{contact.first_name}}",
          html: "{{ contact.email }} {{contact.last_name}} {{contact.plan}} {{brand.name}} {{brand.legal_name}} {{brand.postal_address}} {{brand.website_url}}",
        },
        attributes,
      ),
    ).not.toThrow();
  });

  it("no other namespaces exist (no order, event or promo tags): an unknown tag is refused when the campaign is saved", () => {
    for (const [field, template] of [
      ["subject", "Your order {{order.id}}"],
      ["html", "{{event.name}}"],
      ["text", "Use {{promo.code}}"],
      ["html", "{{first_name}}"],
      ["html", "{{contact.shoe_size}}"],
      ["html", "{{brand.logo}}"],
      ["html", "{{contact.first_name.upper}}"],
    ] as const) {
      expect(() => assertKnownMergeTags({ [field]: template }, new Set()), template).toThrow(
        expect.objectContaining({ code: "validation_failed", param: field }),
      );
    }
  });

  it("fills each tag; a used tag without a value is reported and no default is substituted", () => {
    expect(
      renderMergeTags(
        "Hi {{contact.first_name}} from {{brand.name}}",
        values({ "contact.first_name": "Ada", "brand.name": "Acme" }),
        "text",
      ),
    ).toEqual({ text: "Hi Ada from Acme" });
    expect(renderMergeTags("Hi {{contact.first_name}}", values({ "contact.first_name": null }), "text")).toEqual({
      missing: "contact.first_name",
    });
    expect(renderMergeTags("Hi {{ contact.first_name }}", values({ "contact.first_name": "" }), "text")).toEqual({
      missing: "contact.first_name",
    });
    expect(mergeTagsIn("{{contact.email}} {{ contact.email }}")).toEqual(["contact.email"]);
  });

  it("values are HTML-escaped in HTML bodies; subjects and headers never carry CR or LF", () => {
    const hostile = values({ "contact.first_name": '<script>alert("x")</script>\r\nBcc: a@b.c' });
    expect(renderMergeTags("<p>Hi {{contact.first_name}}</p>", hostile, "html")).toEqual({
      text: "<p>Hi &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;\r\nBcc: a@b.c</p>",
    });
    expect(renderMergeTags("Hi {{contact.first_name}}", hostile, "header")).toEqual({
      text: 'Hi <script>alert("x")</script> Bcc: a@b.c',
    });
  });
});

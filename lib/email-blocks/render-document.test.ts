import { describe, expect, it } from "vitest";

import { assertKnownMergeTags, renderMergeTags } from "@/lib/campaigns/merge-tags";

import { renderDocument } from "./render-document";

const brand = { name: "Acme", logoUrl: "https://cdn.acme.example/logo.png" };
const text = (value: string, marks?: object[]) => ({ type: "text", text: value, ...(marks ? { marks } : {}) });

/** One of every block the editor makes. */
const EVERY_BLOCK = {
  type: "doc",
  content: [
    { type: "brandLogo" },
    { type: "heading", attrs: { level: 1, textAlign: "center" }, content: [text("Spring news")] },
    {
      type: "paragraph",
      content: [
        text("Hi "),
        { type: "mergeTag", attrs: { id: "contact.first_name" } },
        text(", "),
        text("everything", [{ type: "bold" }]),
        text(" is "),
        text("new", [{ type: "italic" }]),
        text(": "),
        text("see it", [{ type: "link", attrs: { href: "https://acme.example/spring" } }]),
      ],
    },
    { type: "image", attrs: { src: "https://cdn.acme.example/hero.jpg", alt: "The spring collection" } },
    { type: "button", attrs: { text: "Shop now", href: "https://acme.example/shop?e={{contact.email}}" } },
    { type: "horizontalRule" },
    { type: "spacer", attrs: { height: 32 } },
    {
      type: "columns",
      content: [
        {
          type: "column",
          content: [
            {
              type: "paragraph",
              content: [
                text("Left, with a "),
                text("link", [{ type: "link", attrs: { href: "https://acme.example/left" } }]),
              ],
            },
          ],
        },
        { type: "column", content: [{ type: "paragraph", content: [text("Right")] }] },
      ],
    },
    {
      type: "bulletList",
      content: [{ type: "listItem", content: [{ type: "paragraph", content: [text("One point")] }] }],
    },
    { type: "brandFooter" },
  ],
};

describe("the block editor's mail", () => {
  it("every block renders email-safe: tables and inline styles in a 600 px column, no <style>, no script, no external CSS, absolute image URLs with alt texts", async () => {
    const { html } = await renderDocument(EVERY_BLOCK, brand);
    expect(html).not.toMatch(/<style/i);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<link\b/i);
    expect(html).not.toMatch(/\bclass=/);
    expect(html).toMatch(/<table[^>]*width="600"/);
    expect(html).toContain("max-width:600px");
    const images = [...html.matchAll(/<img\b[^>]*>/g)].map((match) => match[0]);
    expect(images).toHaveLength(2);
    for (const image of images) {
      expect(image).toMatch(/src="https:\/\//);
      expect(image).toMatch(/alt="[^"]+"/);
    }
    for (const block of [
      "Spring news",
      "The spring collection",
      "Shop now",
      "<hr",
      "height:32px",
      'width="50%"',
      "One point",
    ])
      expect(html).toContain(block);
  });

  it("the text part carries every link of the body, the button's too", async () => {
    const { text: plain } = await renderDocument(EVERY_BLOCK, brand);
    for (const url of [
      "https://acme.example/spring",
      "https://acme.example/shop?e={{contact.email}}",
      "https://acme.example/left",
    ])
      expect(plain).toContain(url);
  });

  it("merge tags come out literal, so the saved campaign passes the merge-tag rule and dispatch fills them", async () => {
    const { html, text: plain } = await renderDocument(EVERY_BLOCK, brand);
    expect(() => assertKnownMergeTags({ html, text: plain }, new Set())).not.toThrow();
    const filled = renderMergeTags(
      html,
      (tag) =>
        ({
          "contact.first_name": "Ada",
          "contact.email": "ada@example.com",
          "brand.name": "Acme",
          "brand.postal_address": "1 Way",
        })[tag],
      "html",
    );
    expect(filled).toMatchObject({ text: expect.stringContaining("Hi <!-- -->Ada") });
    expect((filled as { text: string }).text).toContain("https://acme.example/shop?e=ada@example.com");
  });

  it("a link or image that is not an absolute http(s) address is dropped, and text is escaped", async () => {
    const { html } = await renderDocument(
      {
        type: "doc",
        content: [
          {
            type: "paragraph",
            content: [
              text("<script>alert(1)</script>"),
              text("bad", [{ type: "link", attrs: { href: "javascript:alert(1)" } }]),
            ],
          },
          { type: "image", attrs: { src: "/relative.png", alt: "x" } },
          { type: "button", attrs: { text: "Go", href: "data:text/html,hi" } },
        ],
      },
      brand,
    );
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;");
    expect(html).not.toContain("javascript:");
    expect(html).not.toContain("/relative.png");
    expect(html).not.toContain("data:text/html");
  });

  it("a document the editor could not have made is validation_failed on the document", async () => {
    await expect(
      renderDocument({ type: "doc", content: [{ type: "iframe", attrs: { src: "https://evil.example" } }] }, brand),
    ).rejects.toMatchObject({ code: "validation_failed", param: "document" });
    await expect(renderDocument("not a document", brand)).rejects.toMatchObject({
      code: "validation_failed",
      param: "document",
    });
  });
});

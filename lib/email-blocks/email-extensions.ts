import { mergeAttributes, Node } from "@tiptap/core";
import Image from "@tiptap/extension-image";
import TextAlign from "@tiptap/extension-text-align";
import StarterKit from "@tiptap/starter-kit";

// The block editor's schema, in one place for the browser's editor and the server's renderer (which
// checks a stored document against it). No React, no DOM: both sides import it.

/** `{{contact.first_name}}` as an inline atom; written out literally, for dispatch's merge-tag engine to fill. */
export const MergeTag = Node.create({
  name: "mergeTag",
  group: "inline",
  inline: true,
  atom: true,
  selectable: true,
  addAttributes: () => ({ id: { default: null } }),
  parseHTML: () => [
    {
      tag: "span[data-merge-tag]",
      getAttrs: (element) => ({ id: (element as HTMLElement).getAttribute("data-merge-tag") }),
    },
  ],
  renderHTML: ({ node, HTMLAttributes }) => [
    "span",
    mergeAttributes(HTMLAttributes, { "data-merge-tag": node.attrs.id, class: "merge-tag" }),
    `{{${node.attrs.id}}}`,
  ],
  renderText: ({ node }) => `{{${node.attrs.id}}}`,
});

export const EmailButton = Node.create({
  name: "button",
  group: "block",
  atom: true,
  addAttributes: () => ({
    text: { default: "Read more" },
    href: { default: "https://" },
    align: { default: "center" },
    background: { default: "#111827" },
    color: { default: "#ffffff" },
  }),
  parseHTML: () => [{ tag: "a[data-email-button]" }],
  renderHTML: ({ node, HTMLAttributes }) => [
    "a",
    mergeAttributes(HTMLAttributes, { "data-email-button": "", href: node.attrs.href, class: "email-button" }),
    node.attrs.text,
  ],
});

export const Spacer = Node.create({
  name: "spacer",
  group: "block",
  atom: true,
  addAttributes: () => ({ height: { default: 24 } }),
  parseHTML: () => [{ tag: "div[data-spacer]" }],
  renderHTML: ({ node }) => [
    "div",
    { "data-spacer": "", class: "email-spacer", style: `height:${Number(node.attrs.height) || 24}px` },
  ],
});

/** Two columns side by side; a phone shows them one under the other. */
export const Columns = Node.create({
  name: "columns",
  group: "block",
  content: "column column",
  isolating: true,
  parseHTML: () => [{ tag: "div[data-columns]" }],
  renderHTML: ({ HTMLAttributes }) => [
    "div",
    mergeAttributes(HTMLAttributes, { "data-columns": "", class: "email-columns" }),
    0,
  ],
});

export const Column = Node.create({
  name: "column",
  content: "(paragraph|heading|image|button|spacer|horizontalRule)+",
  isolating: true,
  parseHTML: () => [{ tag: "div[data-column]" }],
  renderHTML: ({ HTMLAttributes }) => [
    "div",
    mergeAttributes(HTMLAttributes, { "data-column": "", class: "email-column" }),
    0,
  ],
});

/** The brand's logo, filled in from the brand when the mail is rendered. */
export const BrandLogo = Node.create({
  name: "brandLogo",
  group: "block",
  atom: true,
  parseHTML: () => [{ tag: "div[data-brand-logo]" }],
  renderHTML: () => ["div", { "data-brand-logo": "", class: "email-brand-block" }, "Brand logo"],
});

/** Where the mail's one footer goes (unsubscribe and preference links, the brand's postal address); without it, at the end. */
export const BrandFooter = Node.create({
  name: "brandFooter",
  group: "block",
  atom: true,
  parseHTML: () => [{ tag: "div[data-brand-footer]" }],
  renderHTML: () => [
    "div",
    { "data-brand-footer": "", class: "email-brand-block" },
    "Footer: unsubscribe and preference links, your postal address",
  ],
});

export const emailExtensions = [
  StarterKit.configure({
    codeBlock: false,
    code: false,
    blockquote: false,
    strike: false,
    link: { openOnClick: false, autolink: true, protocols: ["https", "mailto"] },
  }),
  Image.configure({ inline: false, allowBase64: false }),
  TextAlign.configure({ types: ["heading", "paragraph"] }),
  MergeTag,
  EmailButton,
  Spacer,
  Columns,
  Column,
  BrandLogo,
  BrandFooter,
];

const paragraph = (text: string) => ({ type: "paragraph", content: [{ type: "text", text }] });

/**
 * A new campaign's document: something to type over rather than an empty page, the shape of a
 * mail that reads like a letter. Long enough to be read as one: spam filters score a short HTML
 * part with an image (the open pixel is one) as a mail made of pictures (readings.md, "Spam score
 * of a campaign").
 */
export const STARTER_DOCUMENT = {
  type: "doc",
  content: [
    { type: "brandLogo" },
    { type: "heading", attrs: { level: 1 }, content: [{ type: "text", text: "A headline" }] },
    // No merge tag a contact may lack: there is no default value, and whoever lacked it would be skipped.
    paragraph("Hello,"),
    paragraph("Write your message here."),
    paragraph(
      "Say in the first lines what this mail is about: many inboxes show them beside the subject. Then tell your readers the one thing you would like them to do, and why it is worth their time.",
    ),
    paragraph(
      "Write as you would to one person. A mail that reads like a letter, with more words than pictures, gets read, and mail filters let it through.",
    ),
    paragraph("Thank you for reading,"),
    { type: "paragraph", content: [{ type: "mergeTag", attrs: { id: "brand.name" } }] },
    { type: "brandFooter" },
  ],
};

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

/** A new campaign's document: something to type over rather than an empty page. */
export const STARTER_DOCUMENT = {
  type: "doc",
  content: [
    { type: "brandLogo" },
    { type: "heading", attrs: { level: 1 }, content: [{ type: "text", text: "A headline" }] },
    {
      type: "paragraph",
      // No merge tag a contact may lack: there is no default value, and whoever lacked it would be skipped.
      content: [{ type: "text", text: "Hello," }],
    },
    { type: "paragraph", content: [{ type: "text", text: "Write your message here." }] },
    { type: "brandFooter" },
  ],
};

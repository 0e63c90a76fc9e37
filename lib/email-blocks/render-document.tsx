import "server-only";

import { Body } from "@react-email/body";
import { Button } from "@react-email/button";
import { Column } from "@react-email/column";
import { Container } from "@react-email/container";
import { Head } from "@react-email/head";
import { Heading } from "@react-email/heading";
import { Hr } from "@react-email/hr";
import { Html } from "@react-email/html";
import { Img } from "@react-email/img";
import { Link } from "@react-email/link";
import { render, toPlainText } from "@react-email/render";
import { Row } from "@react-email/row";
import { Section } from "@react-email/section";
import { Text } from "@react-email/text";
import { getSchema, type JSONContent } from "@tiptap/core";
import { Node as DocumentNode } from "@tiptap/pm/model";
import { Fragment, type CSSProperties, type ReactNode } from "react";

import { validationFailed } from "@/lib/errors";
import { FOOTER_SLOT } from "@/lib/mail/footer-slot";

import { emailExtensions } from "./email-extensions";

// The campaign document (the block editor's JSON) as email HTML: tables, inline styles, a 600 px
// column, nothing in <head> but meta tags, no script, absolute URLs only. Merge tags stay literal
// ({{contact.first_name}}) for dispatch to fill per recipient, and the required footer's place is
// kept for dispatch to fill (FOOTER_SLOT) inside the column.

export interface DocumentBrand {
  name: string;
  logoUrl: string | null;
}

const schema = getSchema(emailExtensions);
const MERGE_TAG_ID = /^(contact|brand)\.[a-z0-9_]+$/;
const FONT = "Helvetica, Arial, sans-serif";
const TEXT: CSSProperties = {
  fontFamily: FONT,
  fontSize: "16px",
  lineHeight: "24px",
  color: "#1f2937",
  margin: "0 0 16px",
};
const HEADING: Record<1 | 2 | 3, CSSProperties> = {
  1: { fontSize: "30px", lineHeight: "36px" },
  2: { fontSize: "24px", lineHeight: "30px" },
  3: { fontSize: "20px", lineHeight: "26px" },
};
/** The footer block as React writes it; the rendered mail carries FOOTER_SLOT there instead. */
const FOOTER_MARK = '<div data-consent-footer=""></div>';
const LINK: CSSProperties = { color: "#2563eb", textDecoration: "underline" };

type Mark = NonNullable<JSONContent["marks"]>[number];
type Align = "left" | "center" | "right";

/** An absolute http(s) URL (a merge tag may be part of it), or mailto: for links; anything else is dropped. */
function safeUrl(value: unknown, kind: "link" | "image"): string | null {
  if (typeof value !== "string") return null;
  const url = value.trim();
  if (/^https?:\/\/[^\s"<>]+$/i.test(url)) return url;
  if (kind === "link" && /^mailto:[^\s"<>]+$/i.test(url)) return url;
  return null;
}

function alignOf(value: unknown): Align {
  return value === "center" || value === "right" ? value : "left";
}

/** A colour the editor offers (#rgb or #rrggbb); anything else falls back. */
function colour(value: unknown, fallback: string): string {
  return typeof value === "string" && /^#[0-9a-f]{3}([0-9a-f]{3})?$/i.test(value) ? value : fallback;
}

function withMarks(content: ReactNode, marks: Mark[] = []): ReactNode {
  return marks.reduce<ReactNode>((inner, mark) => {
    if (mark.type === "bold") return <strong>{inner}</strong>;
    if (mark.type === "italic") return <em>{inner}</em>;
    if (mark.type === "underline") return <u>{inner}</u>;
    if (mark.type === "link") {
      const href = safeUrl(mark.attrs?.href, "link");
      return href ? (
        <Link href={href} target="_blank" style={LINK}>
          {inner}
        </Link>
      ) : (
        inner
      );
    }
    return inner;
  }, content);
}

function inline(nodes: JSONContent[] = []): ReactNode[] {
  return nodes.map((node, index) => {
    if (node.type === "text") return <Fragment key={index}>{withMarks(node.text ?? "", node.marks)}</Fragment>;
    if (node.type === "hardBreak") return <br key={index} />;
    if (node.type === "mergeTag") {
      const id = String(node.attrs?.id ?? "");
      return MERGE_TAG_ID.test(id) ? <Fragment key={index}>{withMarks(`{{${id}}}`, node.marks)}</Fragment> : null;
    }
    return null;
  });
}

function block(node: JSONContent, index: number, brand: DocumentBrand): ReactNode {
  const textAlign = alignOf(node.attrs?.textAlign);
  switch (node.type) {
    case "heading": {
      const level = Math.min(3, Math.max(1, Number(node.attrs?.level) || 1)) as 1 | 2 | 3;
      return (
        <Heading
          key={index}
          as={`h${level}`}
          style={{ fontFamily: FONT, color: "#111827", margin: "0 0 12px", textAlign, ...HEADING[level] }}
        >
          {inline(node.content)}
        </Heading>
      );
    }
    case "paragraph":
      return (
        <Text key={index} style={{ ...TEXT, textAlign }}>
          {node.content?.length ? inline(node.content) : "\u00a0"}
        </Text>
      );
    case "bulletList":
    case "orderedList": {
      const List = node.type === "bulletList" ? "ul" : "ol";
      return (
        <List key={index} style={{ ...TEXT, paddingLeft: "24px" }}>
          {(node.content ?? []).map((item, itemIndex) => (
            <li key={itemIndex} style={{ margin: "0 0 4px" }}>
              {(item.content ?? []).flatMap((paragraph) => inline(paragraph.content))}
            </li>
          ))}
        </List>
      );
    }
    case "image": {
      const src = safeUrl(node.attrs?.src, "image");
      if (!src) return null;
      const width = Math.min(600, Number(node.attrs?.width) || 600);
      return (
        <Section key={index} style={{ margin: "0 0 16px" }}>
          <Img
            src={src}
            alt={String(node.attrs?.alt ?? "")}
            width={width}
            style={{ width: "100%", maxWidth: `${width}px`, height: "auto", margin: "0 auto" }}
          />
        </Section>
      );
    }
    case "button": {
      const href = safeUrl(node.attrs?.href, "link");
      if (!href) return null;
      return (
        <Section key={index} style={{ textAlign: alignOf(node.attrs?.align), margin: "0 0 16px" }}>
          <Button
            href={href}
            style={{
              backgroundColor: colour(node.attrs?.background, "#111827"),
              color: colour(node.attrs?.color, "#ffffff"),
              fontFamily: FONT,
              fontSize: "16px",
              fontWeight: 600,
              padding: "12px 24px",
              borderRadius: "6px",
              textDecoration: "none",
            }}
          >
            {String(node.attrs?.text ?? "")}
          </Button>
        </Section>
      );
    }
    case "horizontalRule":
      return <Hr key={index} style={{ borderColor: "#e5e7eb", margin: "24px 0" }} />;
    case "spacer": {
      const height = Math.min(200, Math.max(0, Number(node.attrs?.height) || 24));
      return (
        <Section key={index}>
          <Row>
            <Column style={{ height: `${height}px`, lineHeight: `${height}px`, fontSize: "1px" }}>&nbsp;</Column>
          </Row>
        </Section>
      );
    }
    case "columns":
      return (
        <Section key={index} style={{ margin: "0 0 16px" }}>
          <Row>
            {(node.content ?? []).map((column, columnIndex) => (
              <Column
                key={columnIndex}
                width="50%"
                valign="top"
                style={{
                  width: "50%",
                  verticalAlign: "top",
                  paddingLeft: columnIndex ? "8px" : 0,
                  paddingRight: columnIndex ? 0 : "8px",
                }}
              >
                {(column.content ?? []).map((child, childIndex) => block(child, childIndex, brand))}
              </Column>
            ))}
          </Row>
        </Section>
      );
    case "brandLogo": {
      const src = safeUrl(brand.logoUrl, "image");
      return src ? (
        <Section key={index} style={{ textAlign: "center", margin: "0 0 24px" }}>
          <Img
            src={src}
            alt={brand.name}
            width={160}
            style={{ width: "160px", height: "auto", display: "inline-block" }}
          />
        </Section>
      ) : (
        <Heading
          key={index}
          as="h2"
          style={{ fontFamily: FONT, color: "#111827", margin: "0 0 24px", textAlign: "center", ...HEADING[2] }}
        >
          {brand.name}
        </Heading>
      );
    }
    case "brandFooter":
      // Marks where the required footer goes (FOOTER_SLOT, once the mail is rendered): one footer, not a second address.
      return <div key={index} data-consent-footer="" />;
    default:
      return null;
  }
}

function Email({ document, brand }: { document: JSONContent; brand: DocumentBrand }) {
  const nodes = document.content ?? [];
  const footerAt = nodes.findIndex((node) => node.type === "brandFooter");
  return (
    <Html lang="en">
      <Head />
      <Body style={{ margin: 0, padding: 0, backgroundColor: "#f3f4f6" }}>
        <Container
          width={600}
          style={{ width: "100%", maxWidth: "600px", margin: "0 auto", padding: "24px", backgroundColor: "#ffffff" }}
        >
          {nodes.map((node, index) =>
            node.type === "brandFooter" && index !== footerAt ? null : block(node, index, brand),
          )}
          {/* Without a footer block the footer still goes inside the column, at its end. */}
          {footerAt === -1 && <div data-consent-footer="" />}
        </Container>
      </Body>
    </Html>
  );
}

/**
 * The document, checked against the editor's schema (anything else is
 * `validation_failed` on `document`), as the mail's HTML and plain-text parts.
 */
export async function renderDocument(json: unknown, brand: DocumentBrand): Promise<{ html: string; text: string }> {
  let document: JSONContent;
  try {
    const node = DocumentNode.fromJSON(schema, json);
    node.check();
    document = node.toJSON() as JSONContent;
  } catch {
    throw validationFailed("document", "document: the body is not a document the editor makes.");
  }
  const html = (await render(<Email document={document} brand={brand} />)).replace(FOOTER_MARK, FOOTER_SLOT);
  return { html, text: toPlainText(html) };
}

import { validationFailed } from "@/lib/errors";
import { singleLine } from "@/lib/mail/build-message";
import { escapeHtml } from "@/lib/mail/escape-html";

import { mergeTagsIn, MERGE_TAG as TAG } from "./merge-tag-names";

export { mergeTagsIn };

const CONTACT_FIELDS = new Set(["email", "first_name", "last_name"]);
const BRAND_FIELDS = new Set(["name", "legal_name", "postal_address", "website_url"]);

/**
 * Only two namespaces exist: `contact.` (email, first_name, last_name and
 * the workspace's custom attributes) and `brand.` (name, legal_name,
 * postal_address, website_url). A campaign using any other tag is refused
 * when it is saved, naming the field and the tag.
 */
export function assertKnownMergeTags(
  fields: Record<string, string | null | undefined>,
  attributeKeys: ReadonlySet<string>,
): void {
  for (const [field, template] of Object.entries(fields)) {
    for (const tag of mergeTagsIn(template ?? "")) {
      const [namespace, name, ...rest] = tag.split(".");
      const known =
        rest.length === 0 &&
        name !== undefined &&
        ((namespace === "contact" && (CONTACT_FIELDS.has(name) || attributeKeys.has(name))) ||
          (namespace === "brand" && BRAND_FIELDS.has(name)));
      if (!known)
        throw validationFailed(
          field,
          `${field}: {{${tag}}} is not a merge tag. Use contact.<field or attribute> or brand.<name|legal_name|postal_address|website_url>.`,
        );
    }
  }
}

export type MergeValues = (tag: string) => string | null | undefined;
export type RenderTarget = "html" | "text" | "header";

/**
 * Fills the tags for one recipient. A used tag without a value is not
 * defaulted: the result names it, and the recipient is skipped. Values are
 * escaped in HTML; in headers (the subject) they never carry CR or LF.
 */
export function renderMergeTags(
  template: string,
  values: MergeValues,
  target: RenderTarget,
): { text: string } | { missing: string } {
  for (const tag of mergeTagsIn(template)) {
    const value = values(tag);
    if (value === null || value === undefined || value === "") return { missing: tag };
  }
  const text = template.replace(TAG, (_match, tag: string) => {
    const value = values(tag)!;
    if (target === "html") return escapeHtml(value);
    if (target === "header") return singleLine(value);
    return value;
  });
  return { text: target === "header" ? singleLine(text) : text };
}

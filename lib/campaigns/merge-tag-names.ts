// No server imports: the campaign editor in the browser finds the tags a campaign uses with the same rule as saving and dispatch.

/** Anything between double braces: a tag, well-formed or not. */
export const MERGE_TAG = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** The tags a template uses, as written without spaces (`contact.first_name`), each once. */
export function mergeTagsIn(template: string): string[] {
  return [...new Set([...template.matchAll(MERGE_TAG)].map((match) => match[1]!))];
}

/**
 * The tags a block editor's document uses: its merge-tag blocks and any tag
 * typed into a text, a link or a button's address, in the document's order.
 */
export function mergeTagsInDocument(document: unknown): string[] {
  const found: string[] = [];
  const visit = (value: unknown): void => {
    if (typeof value === "string") found.push(...mergeTagsIn(value));
    else if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === "object") {
      const node = value as { type?: unknown; attrs?: { id?: unknown } };
      if (node.type === "mergeTag" && typeof node.attrs?.id === "string") found.push(node.attrs.id);
      Object.values(value).forEach(visit);
    }
  };
  visit(document);
  return [...new Set(found)];
}

/**
 * Where a mail written in the block editor wants the required footer: the
 * footer block's place, or the end of its 600 px column when it has none. The
 * renderer writes it; text typed into a block cannot (it is escaped).
 */
export const FOOTER_SLOT = "<!--consent-footer-->";

/** The footer in the body's slot (the first one; any other is dropped), or null when the body has none. */
export function fillFooterSlot(html: string, footer: string): string | null {
  const at = html.indexOf(FOOTER_SLOT);
  if (at === -1) return null;
  return `${html.slice(0, at)}${footer}${html.slice(at + FOOTER_SLOT.length).replaceAll(FOOTER_SLOT, "")}`;
}

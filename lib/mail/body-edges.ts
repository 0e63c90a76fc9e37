/**
 * Adds markup at the end of a mail's visible body: before `</body>` when the
 * HTML is a whole document (a client may drop what follows `</html>`), at the
 * end when it is a fragment.
 */
export function appendToBody(html: string, extra: string): string {
  const end = html.toLowerCase().lastIndexOf("</body>");
  return end === -1 ? `${html}${extra}` : `${html.slice(0, end)}${extra}${html.slice(end)}`;
}

/** Adds markup at the start of a mail's visible body: after `<body …>` in a whole document, first in a fragment. */
export function prependToBody(html: string, extra: string): string {
  const open = /<body\b[^>]*>/i.exec(html);
  if (!open) return `${extra}${html}`;
  const at = open.index + open[0].length;
  return `${html.slice(0, at)}${extra}${html.slice(at)}`;
}

/**
 * The form's look, every rule under `scope` (the form's root class), so
 * that the plain HTML form styles only itself on the sender's page. In the
 * script's shadow root the host page's rules cannot reach it at all.
 */
export function formCss(scope: string): string {
  const s = scope;
  return `${s}{box-sizing:border-box;max-width:28rem;padding:1.5rem;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#111827;background:#fff;border:1px solid #e5e7eb;text-align:left}
${s} *{box-sizing:border-box;font:inherit;color:inherit}
${s}.sf-dark{color:#f3f4f6;background:#111827;border-color:#374151}
${s}.sf-rounded{border-radius:12px}
${s} h2{margin:0 0 .25rem;font-size:1.25rem;font-weight:700}
${s} p{margin:0 0 .75rem}
${s} .sf-muted{opacity:.75;font-size:.875rem}
${s} .sf-field{display:block;margin:0 0 .75rem}
${s} label{display:block;margin:0 0 .25rem;font-weight:600;font-size:.875rem}
${s} input[type=email],${s} input[type=text],${s} input[type=number],${s} input[type=date]{display:block;width:100%;padding:.5rem .75rem;border:1px solid #9ca3af;background:#fff;color:#111827;border-radius:0}
${s}.sf-rounded input{border-radius:6px}
${s} input:focus-visible,${s} button:focus-visible{outline:2px solid var(--sf-accent);outline-offset:2px}
${s} input[aria-invalid=true]{border-color:#dc2626}
${s} .sf-check{display:flex;gap:.5rem;align-items:flex-start;font-weight:400}
${s} .sf-check input{margin:.25rem 0 0}
${s} fieldset{margin:0 0 .75rem;padding:0;border:0}
${s} legend{margin:0 0 .25rem;padding:0;font-weight:600;font-size:.875rem}
${s} .sf-error{display:block;margin:.25rem 0 0;color:#dc2626;font-size:.875rem}
${s}.sf-dark .sf-error{color:#f87171}
${s} .sf-error:empty{display:none}
${s} .sf-hp{position:absolute!important;left:-10000px!important;width:1px;height:1px;overflow:hidden}
${s} button{display:inline-block;width:100%;padding:.6rem 1rem;border:0;background:var(--sf-accent);color:#fff;font-weight:600;cursor:pointer}
${s}.sf-rounded button{border-radius:6px}
${s} button[disabled]{opacity:.6;cursor:progress}
${s} a{color:var(--sf-accent);text-decoration:underline}
${s}.sf-dark a{color:inherit}
${s} .sf-status{margin:.75rem 0 0;font-size:.875rem}
${s} .sf-status:empty{display:none}
${s} .sf-done{margin:0;font-size:1rem;font-weight:600}`;
}

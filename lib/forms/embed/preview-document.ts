import type { PublicSignupForm } from "../public-signup-form";
import { formCss } from "./form-css";
import { formMarkup } from "./form-markup";

const SCOPE = "sf-preview";

// Stops the button's click, which is what submits (also on Enter in a field), after the browser's own
// checks; nothing is posted. The frame is sandboxed without allow-forms, so the form could not post anyway.
const PREVIEW_SCRIPT = `document.querySelector("button").addEventListener("click",function(event){event.preventDefault();var form=event.target.form;if(form.reportValidity())form.querySelector(".sf-status").textContent="This is a preview: it does not sign anyone up."});`;

/**
 * The document of the dashboard's preview of a form, drawn from the editor's
 * unsaved values: the markup and styles every embed shares, in one page
 * that loads nothing, so it appears as soon as the frame does. It is shown in
 * a frame sandboxed without allow-same-origin: its script cannot reach the
 * dashboard.
 */
export function formPreviewDocument(form: PublicSignupForm, dark: boolean): string {
  const background = dark ? "#0b0f19" : "#f3f4f6";
  return `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><style>body{margin:0;padding:24px;background:${background}}${formCss(`.${SCOPE}`)}</style></head><body>
${formMarkup(form, SCOPE)}
<script>${PREVIEW_SCRIPT}</script></body></html>`;
}

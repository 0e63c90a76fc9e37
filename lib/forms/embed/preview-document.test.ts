import { describe, expect, it } from "vitest";

import { publicSignupForm } from "../public-signup-form";
import { SIGNUP_FORM_DEFAULTS } from "../signup-form-schemas";
import { formPreviewDocument } from "./preview-document";

// As the editor builds it from unsaved values: no id yet, no service address.
const form = publicSignupForm(
  {
    id: "fm_preview",
    fields: SIGNUP_FORM_DEFAULTS.fields,
    texts: { ...SIGNUP_FORM_DEFAULTS.texts, title: "Get <Product> News" },
    style: SIGNUP_FORM_DEFAULTS.style,
    challenge: true,
  },
  [{ id: "tp_1", name: "News" }],
  {},
  "",
);

describe("signup form preview", () => {
  it("the dashboard's preview holds the form's own markup and styles and fetches nothing, so it is drawn at once on every load", () => {
    const page = formPreviewDocument(form, false);
    expect(page).toContain("<h2>Get &lt;Product&gt; News</h2>");
    expect(page).toContain(".sf-preview{box-sizing:border-box");
    expect(page).not.toMatch(/\bsrc=/);
    expect(page).not.toMatch(/<link\b/);
  });

  it("the preview's button signs nobody up: its only script stops the click and says it is a preview", () => {
    const page = formPreviewDocument(form, false);
    const scripts = page.match(/<script>[\s\S]*?<\/script>/g) ?? [];
    expect(scripts).toHaveLength(1);
    expect(scripts[0]).toContain("preventDefault");
    expect(scripts[0]).toContain("This is a preview: it does not sign anyone up.");
  });

  it("the preview's page takes the form's theme, so a dark form is seen on a dark page", () => {
    expect(formPreviewDocument(form, true)).toContain("background:#0b0f19");
    expect(formPreviewDocument(form, false)).toContain("background:#f3f4f6");
  });
});

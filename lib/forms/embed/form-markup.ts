import type { PublicFormField, PublicSignupForm } from "../public-signup-form";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);
const escape = escapeHtml;

/** The id of a field's input; its error is `<id>-error`. */
export const fieldId = (formId: string, name: string) => `sf-${formId}-${name.replace(/[^a-zA-Z0-9_-]/g, "-")}`;

export interface FormMarkupState {
  /** Problems shown next to their fields, by field name (`form` for the whole form). */
  errors?: Record<string, string>;
  /** Replaces the form with this thank-you message. */
  done?: string;
}

/** The root element's classes; `scope` is the class its CSS rules hang from. */
export function formClasses(form: PublicSignupForm, scope: string): string {
  return `${scope} sf-${form.theme} sf-${form.corners}`;
}

/**
 * The form's HTML, one markup for every way it is shown: the script renders
 * it in a shadow root, the plain HTML snippet and the hosted page serve it
 * as it is (it posts without JavaScript). Every text is escaped.
 */
export function formMarkup(form: PublicSignupForm, scope: string, state: FormMarkupState = {}): string {
  const errors = state.errors ?? {};
  const open = `<div class="${escape(formClasses(form, scope))}" style="--sf-accent:${escape(form.color)}">`;
  if (state.done) return `${open}<p class="sf-done" role="status" tabindex="-1">${escape(state.done)}</p></div>`;
  const idOf = (name: string) => fieldId(form.id, name);
  const error = (name: string) =>
    `<span class="sf-error" id="${idOf(name)}-error">${escape(errors[name] ?? "")}</span>`;
  const input = (field: PublicFormField) => {
    const id = idOf(field.name);
    const invalid = errors[field.name] ? ` aria-invalid="true"` : "";
    const common = `id="${id}" name="${escape(field.name)}"${field.required ? " required" : ""} aria-describedby="${id}-error"${invalid}`;
    if (field.type === "checkbox") {
      return `<div class="sf-field"><label class="sf-check"><input type="checkbox" ${common} value="on"><span>${escape(field.label)}</span></label>${error(field.name)}</div>`;
    }
    const autocomplete = { email: "email", first_name: "given-name", last_name: "family-name" }[field.name];
    const label = `${escape(field.label)}${field.required ? "" : ` <span class="sf-muted">(optional)</span>`}`;
    return `<div class="sf-field"><label for="${id}">${label}</label><input type="${field.type}" ${common}${autocomplete ? ` autocomplete="${autocomplete}"` : ""}>${error(field.name)}</div>`;
  };
  const topics =
    form.topics.length > 1
      ? `<fieldset aria-describedby="${idOf("topic_ids")}-error"><legend>Choose what you would like to receive</legend>${form.topics
          .map(
            (topic) =>
              `<label class="sf-check"><input type="checkbox" name="topic_ids" value="${escape(topic.id)}" checked><span>${escape(topic.name)}</span></label>`,
          )
          .join("")}${error("topic_ids")}</fieldset>`
      : "";
  const privacy = form.privacyUrl
    ? ` <a href="${escape(form.privacyUrl)}" target="_blank" rel="noopener">Privacy policy</a>`
    : "";
  const challenge = form.challengeUrl ? `<input type="hidden" name="altcha" value="">` : "";
  return `${open}<form action="${escape(form.action)}" method="post" accept-charset="utf-8"${form.challengeUrl ? ` data-challenge-url="${escape(form.challengeUrl)}"` : ""}>
${form.title ? `<h2>${escape(form.title)}</h2>` : ""}${form.description ? `<p class="sf-muted">${escape(form.description)}</p>` : ""}
${form.fields.map(input).join("\n")}
${topics}
<div class="sf-hp" aria-hidden="true"><label>Leave this empty <input type="text" name="website" tabindex="-1" autocomplete="off"></label></div>${challenge}<input type="hidden" name="time_zone" value="">
${form.consent || privacy ? `<p class="sf-muted">${escape(form.consent)}${privacy}</p>` : ""}
<button type="submit">${escape(form.button)}</button>
<p class="sf-status" role="alert">${escape(errors.form ?? "")}</p>
</form></div>`;
}

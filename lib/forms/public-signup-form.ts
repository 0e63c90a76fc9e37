// What a visitor's browser is told about a form: the script embed fetches it, the hosted page and the
// plain HTML snippet render it. No database here: the dashboard's preview builds one from unsaved values.
import type { SignupFormFields, SignupFormStyle, SignupFormTexts } from "@/lib/db/schema/signup-forms";

export interface PublicFormField {
  /** The name the submission carries: email, first_name, last_name or attributes.<key>. */
  name: string;
  label: string;
  type: "email" | "text" | "number" | "date" | "checkbox";
  required: boolean;
}

/** Texts and look are the form's own, as the sender saved them. */
export interface PublicSignupForm extends SignupFormTexts, SignupFormStyle {
  id: string;
  /** Absolute URL the form posts to. */
  action: string;
  /** Absolute URL of a fresh proof-of-work challenge; null when the form does not ask for one. */
  challengeUrl: string | null;
  fields: PublicFormField[];
  /** Several topics are offered as checkboxes; one is implied. */
  topics: { id: string; name: string }[];
}

interface FormShape {
  id: string;
  fields: SignupFormFields;
  texts: SignupFormTexts;
  style: SignupFormStyle;
  challenge: boolean;
}

const INPUT_TYPES = { string: "text", number: "number", boolean: "checkbox", date: "date" } as const;

export function publicSignupForm(
  form: FormShape,
  topics: { id: string; name: string }[],
  attributeTypes: Record<string, keyof typeof INPUT_TYPES>,
  appUrl: string,
): PublicSignupForm {
  const base = `${appUrl.replace(/\/$/, "")}/f/${form.id}`;
  const fields: PublicFormField[] = [{ name: "email", label: "Email", type: "email", required: true }];
  if (form.fields.firstName !== "off")
    fields.push({
      name: "first_name",
      label: "First name",
      type: "text",
      required: form.fields.firstName === "required",
    });
  if (form.fields.lastName !== "off")
    fields.push({ name: "last_name", label: "Last name", type: "text", required: form.fields.lastName === "required" });
  for (const attribute of form.fields.attributes) {
    const type = Object.hasOwn(attributeTypes, attribute.key) ? attributeTypes[attribute.key]! : "string";
    fields.push({
      name: `attributes.${attribute.key}`,
      label: attribute.label,
      type: INPUT_TYPES[type],
      required: attribute.required,
    });
  }
  return {
    id: form.id,
    action: `${base}/submit`,
    challengeUrl: form.challenge ? `${base}/challenge` : null,
    ...form.texts,
    ...form.style,
    fields,
    topics,
  };
}

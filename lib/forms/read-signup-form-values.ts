import "server-only";

import { attributeFromText } from "@/lib/contacts/attribute-schemas";
import { canonicalTimeZone } from "@/lib/contacts/time-zone";
import type { AttributeValue } from "@/lib/db/schema";
import { validationFailed } from "@/lib/errors";
import type { FormSubmission } from "@/lib/subscriptions/subscribe-from-form";
import { emailField } from "@/lib/validation/fields";

import type { LoadedSignupForm } from "./load-signup-form";

/** A submission as sent: the plain form's fields, or the script's JSON object of the same names. */
export type SubmittedValues = Record<string, string | string[] | undefined>;

export interface ReadSubmission {
  fields: Omit<FormSubmission, "topicId">;
  topicIds: string[];
  website: string | undefined;
}

const MAX_NAME = 120;

function single(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value)?.trim() ?? "";
}

/**
 * The form's own fields, checked against its definition: the email address,
 * the names it asks for, its attributes typed as the workspace defines them,
 * and the topics ticked among the form's (one topic is implied). Fields the
 * form does not ask for are ignored: the host page may add its own inputs.
 * The first problem is `validation_failed` naming the field as the form does.
 */
export function readSignupFormValues(form: LoadedSignupForm, values: SubmittedValues): ReadSubmission {
  const email = emailField.safeParse(single(values.email));
  if (!email.success) throw validationFailed("email", "Enter a valid email address.");

  const name = (
    field: "first_name" | "last_name",
    mode: "off" | "optional" | "required",
    label: string,
  ): string | undefined => {
    if (mode === "off") return undefined;
    const text = single(values[field]);
    if (!text && mode === "required") throw validationFailed(field, `Enter your ${label}.`);
    if (text.length > MAX_NAME) throw validationFailed(field, `Your ${label} can be at most ${MAX_NAME} characters.`);
    return text || undefined;
  };
  const firstName = name("first_name", form.fields.firstName, "first name");
  const lastName = name("last_name", form.fields.lastName, "last name");

  const attributes: Record<string, AttributeValue> = {};
  for (const attribute of form.fields.attributes) {
    const param = `attributes.${attribute.key}`;
    const type = Object.hasOwn(form.attributeTypes, attribute.key) ? form.attributeTypes[attribute.key]! : "string";
    const text = single(values[param]);
    // A ticked checkbox posts "on" (HTML) or "true" (the script); an unticked one posts nothing.
    const value = text === "" ? undefined : type === "boolean" && text === "on" ? true : attributeFromText(type, text);
    if (text === "" && attribute.required)
      throw validationFailed(param, type === "boolean" ? "Tick this box to continue." : `Fill in ${attribute.label}.`);
    if (text !== "" && value === undefined)
      throw validationFailed(
        param,
        `${attribute.label} must be a ${type === "string" ? "text of at most 2000 characters" : type}.`,
      );
    if (value !== undefined) attributes[attribute.key] = value;
  }

  const offered = form.topics.map((topic) => topic.id);
  const ticked = ([] as string[]).concat(values.topic_ids ?? []);
  const topicIds = offered.length === 1 ? offered : offered.filter((id) => ticked.includes(id));
  if (topicIds.length === 0) throw validationFailed("topic_ids", "Choose at least one.");

  return {
    fields: {
      email: email.data,
      firstName,
      lastName,
      // The browser's own zone (the hidden field the form's script fills); one the runtime does not know is dropped.
      timeZone: canonicalTimeZone(single(values.time_zone)) ?? undefined,
      attributes: Object.keys(attributes).length > 0 ? attributes : undefined,
    },
    topicIds,
    website: single(values.website) || undefined,
  };
}

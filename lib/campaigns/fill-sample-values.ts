import "server-only";

import type { AttributeType } from "@/lib/db/schema";

import { mergeValuesFor, SAMPLE_CONTACT } from "./render-campaign-mail";

type Contact = Parameters<typeof mergeValuesFor>[0];
type Brand = Parameters<typeof mergeValuesFor>[1];

export interface SampleValue {
  tag: string;
  value: string;
}

/**
 * A campaign's mail has no default values: a recipient without a value for a
 * tag it uses is skipped. A test shows the whole mail instead: the contact's
 * own values, and for each contact tag it has none for (every one, for an
 * address that is not a contact) a made-up value of the attribute's type,
 * named so that the sender knows which parts real recipients might lack.
 */
export function fillSampleValues(
  tags: string[],
  contact: Contact,
  brand: Brand,
  attributeTypes: ReadonlyMap<string, AttributeType>,
  today: Date,
): { contact: Contact; samples: SampleValue[] } {
  const own = mergeValuesFor(contact, brand);
  const filled: Contact = { ...contact, attributes: { ...contact.attributes } };
  const samples: SampleValue[] = [];
  for (const tag of tags) {
    const [namespace, name = ""] = tag.split(".");
    const value = own(tag);
    if (namespace !== "contact" || (value !== null && value !== undefined && value !== "")) continue;
    if (name === "first_name") filled.firstName = SAMPLE_CONTACT.firstName;
    else if (name === "last_name") filled.lastName = SAMPLE_CONTACT.lastName;
    else if (name !== "email") filled.attributes[name] = sampleAttribute(name, attributeTypes.get(name), today);
    samples.push({ tag, value: String(mergeValuesFor(filled, brand)(tag)) });
  }
  return { contact: filled, samples };
}

function sampleAttribute(key: string, type: AttributeType | undefined, today: Date): string | number | boolean {
  if (type === "number") return 42;
  if (type === "boolean") return true;
  if (type === "date") return today.toISOString().slice(0, 10);
  return `Sample ${key.replaceAll("_", " ")}`;
}

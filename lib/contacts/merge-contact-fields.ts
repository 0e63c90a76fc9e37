import type { AttributeValue, MergePolicy } from "@/lib/db/schema";

export interface ContactFields {
  firstName: string | null;
  lastName: string | null;
  attributes: Record<string, AttributeValue>;
}

export interface IncomingFields {
  firstName?: string | null;
  lastName?: string | null;
  attributes?: Record<string, AttributeValue | null>;
}

const isBlank = (value: unknown) => value === undefined || value === null || value === "";

function mergeValue<T>(
  policy: MergePolicy,
  stored: T | null | undefined,
  incoming: T | null | undefined,
  given: boolean,
): T | null | undefined {
  if (!given) return stored;
  switch (policy) {
    case "keep_existing":
      return isBlank(stored) ? incoming : stored;
    case "overwrite":
      return incoming;
    case "per_field":
      return isBlank(incoming) ? stored : incoming;
  }
}

/**
 * A contact's time zone under the same policies as their other fields (undefined: the import's file
 * has no time zone column, the API request or the form names none).
 */
export function mergeTimeZone(policy: MergePolicy, stored: string | null, incoming: string | null | undefined) {
  return mergeValue(policy, stored, incoming, incoming !== undefined) || null;
}

/**
 * A repeated address merges rather than duplicates. keep_existing: stored
 * values win, blanks are still filled; overwrite: incoming wins; per_field
 * (the default): incoming wins only where it is non-empty. A field the request
 * does not mention is never touched.
 */
export function mergeContactFields(
  policy: MergePolicy,
  stored: ContactFields,
  incoming: IncomingFields,
): ContactFields {
  const attributes: Record<string, AttributeValue> = { ...stored.attributes };
  for (const [key, value] of Object.entries(incoming.attributes ?? {})) {
    // Own values only: an attribute named `constructor` is blank on a contact without it, not Object's function.
    const merged = mergeValue(
      policy,
      Object.hasOwn(stored.attributes, key) ? stored.attributes[key] : undefined,
      value,
      true,
    );
    if (merged === null || merged === undefined || merged === "") delete attributes[key];
    else attributes[key] = merged;
  }
  return {
    firstName:
      (mergeValue(
        policy,
        stored.firstName,
        incoming.firstName,
        "firstName" in incoming && incoming.firstName !== undefined,
      ) ??
        null) ||
      null,
    lastName:
      (mergeValue(
        policy,
        stored.lastName,
        incoming.lastName,
        "lastName" in incoming && incoming.lastName !== undefined,
      ) ??
        null) ||
      null,
    attributes,
  };
}

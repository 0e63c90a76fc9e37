import type { AttributeKind } from "./attribute-schemas";

/**
 * An attribute's value as the dashboard shows it, by the attribute's type: numbers with thousands
 * separators, booleans as Yes/No, a date as written when it is a day, else to the minute in UTC
 * (as timestamps read elsewhere on the dashboard). A value of another type than the definition's
 * (stored before a redefinition) is shown as it is; a missing one is null.
 */
export function attributeText(type: AttributeKind, value: unknown): string | null {
  if (value === undefined || value === null || value === "") return null;
  if (type === "number" && typeof value === "number") return value.toLocaleString("en");
  if (type === "boolean" && typeof value === "boolean") return value ? "Yes" : "No";
  if (type === "date" && typeof value === "string" && value.length > 10) {
    const date = new Date(value);
    if (!Number.isNaN(date.getTime())) return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  }
  if (typeof value === "boolean") return value ? "Yes" : "No";
  return String(value);
}

import type { ImportField } from "./import-fields";

/**
 * A column header or an attribute key as it is compared: trimmed, accents dropped (NFKD, marks
 * stripped), lower-case, each run of other characters than letters and digits one "_", no "_" at
 * either end. "Favourite roast" and "favourite_roast" are both `favourite_roast`; it is also the key
 * the mapping step offers for a new attribute made from the column.
 */
export function normaliseName(text: string): string {
  return text
    .trim()
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "_")
    .replace(/^_+|_+$/g, "");
}

/** Levenshtein distance: the fewest single-character insertions, deletions and substitutions from a to b. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** Headers people write for the built-in fields, normalised and without "_" ("E-mail" and "Email address" alike). */
const SYNONYMS: Record<string, string[]> = {
  email: ["email", "emailaddress", "mail", "emailadresse", "courriel", "correo", "correoelectronico"],
  first_name: ["firstname", "first", "givenname", "forename", "vorname", "prenom", "nombre"],
  last_name: ["lastname", "last", "surname", "familyname", "nachname", "nom", "apellido", "apellidos"],
  time_zone: ["timezone", "tz", "zeitzone", "fuseauhoraire", "zonahoraria"],
};

/** Below this length one character is too much of a name to guess at ("city" is not "cite"). */
const NEAR_MIN_LENGTH = 6;

const attributeKey = (field: ImportField) => (field.key.startsWith("attributes.") ? field.key.slice(11) : null);

function sameName(name: string, field: ImportField): boolean {
  const key = attributeKey(field);
  if (key !== null) return normaliseName(key) === name;
  return SYNONYMS[field.key]?.includes(name.replaceAll("_", "")) || normaliseName(field.label) === name;
}

/**
 * A first mapping from the header. A column fills the field whose normalised name is its own (the
 * built-in fields also under their usual other names); failing that, the one attribute whose key is
 * one edit away from it when both have at least 6 characters ("Favourite roast" fills
 * `favorite_roast`), and none when two are. Exact matches are made first, for every column; a field
 * is filled by one column at most; the other columns are ignored ("").
 */
export function autoMap(header: string[], fields: ImportField[]): string[] {
  const names = header.map(normaliseName);
  const taken = new Set<string>();
  const mapping = names.map((name) => {
    const field = name ? fields.find((f) => !taken.has(f.key) && sameName(name, f)) : undefined;
    if (!field) return "";
    taken.add(field.key);
    return field.key;
  });
  return mapping.map((mapped, column) => {
    const name = names[column]!;
    if (mapped || name.length < NEAR_MIN_LENGTH) return mapped;
    const near = fields.filter((f) => {
      const key = attributeKey(f);
      return key !== null && !taken.has(f.key) && key.length >= NEAR_MIN_LENGTH && editDistance(name, key) <= 1;
    });
    if (near.length !== 1) return "";
    taken.add(near[0]!.key);
    return near[0]!.key;
  });
}

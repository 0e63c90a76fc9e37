import "server-only";

import { asc, eq } from "drizzle-orm";

import { requireActorWorkspace, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { attributeDefinitions, type AttributeType } from "@/lib/db/schema";

export interface ImportField {
  /** What a mapping names: `email`, `first_name`, `last_name` or `attributes.<key>`. */
  key: string;
  label: string;
  /** For attributes: the type a cell must have. */
  type: AttributeType | null;
}

/** The fields a column can fill in this workspace: the address, the names and each defined attribute. */
export async function importFields(ctx: Ctx, actor: Actor): Promise<ImportField[]> {
  const workspaceId = requireActorWorkspace(actor);
  const attributes = await ctx.db
    .select({ key: attributeDefinitions.key, type: attributeDefinitions.type })
    .from(attributeDefinitions)
    .where(eq(attributeDefinitions.workspaceId, workspaceId))
    .orderBy(asc(attributeDefinitions.key));
  return [
    { key: "email", label: "Email address", type: null },
    { key: "first_name", label: "First name", type: null },
    { key: "last_name", label: "Last name", type: null },
    ...attributes.map((a) => ({ key: `attributes.${a.key}`, label: a.key, type: a.type })),
  ];
}

const squash = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");

/** Headers people write for the built-in fields, squashed (no case, spaces or punctuation). */
const SYNONYMS: Record<string, string[]> = {
  email: ["email", "emailaddress", "mail", "emailadresse", "courriel", "correo", "correoelectronico"],
  first_name: ["firstname", "first", "givenname", "forename", "vorname", "prenom", "nombre"],
  last_name: ["lastname", "last", "surname", "familyname", "nachname", "nom", "apellido", "apellidos"],
};

/**
 * A first mapping from the header: a column whose name is a field's (or a
 * usual way of writing it) fills that field; the others are ignored. A field
 * is filled by one column at most.
 */
export function autoMap(header: string[], fields: ImportField[]): string[] {
  const taken = new Set<string>();
  return header.map((name) => {
    const squashed = squash(name);
    const field = fields.find(
      (f) =>
        !taken.has(f.key) &&
        (SYNONYMS[f.key]?.includes(squashed) ||
          squash(f.key.replace(/^attributes\./, "")) === squashed ||
          squash(f.label) === squashed),
    );
    if (!field) return "";
    taken.add(field.key);
    return field.key;
  });
}

import { bigint, customType, index, integer, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";

import { at, createdAt, id, updatedAt } from "./columns";
import type { AttributeValue } from "./contacts";
import { users } from "./users";
import { workspaces } from "./workspaces";

const bytea = customType<{ data: Buffer }>({ dataType: () => "bytea" });

/** uploaded → checked (dry run done; checking again with another mapping stays here) → applying → completed, cancelled or failed. */
export const IMPORT_STATUSES = ["uploaded", "checked", "applying", "completed", "cancelled", "failed"] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];
/** How an uploaded file's bytes are read: UTF-16 by its byte-order mark, else UTF-8 when valid, else Latin-1. */
export const IMPORT_ENCODINGS = ["utf-8", "latin1", "utf-16le", "utf-16be"] as const;
export type ImportEncoding = (typeof IMPORT_ENCODINGS)[number];

/** Why a row is not applied. */
export const IMPORT_REFUSALS = [
  "invalid_email",
  "duplicate",
  "unsubscribed",
  "suppressed",
  "erased",
  "bad_value",
] as const;
export type ImportRefusal = (typeof IMPORT_REFUSALS)[number];

export type ImportPolicy = "keep" | "overwrite";

export interface ImportOptions {
  /** Existing contacts: keep their values (blanks are filled), or take the file's non-empty ones. */
  policy: ImportPolicy;
  topicIds: string[];
  listId: string | null;
  /** The sender ticked "start automations" for this import: its list adds enter list_added automations. Absent on older imports: no. */
  startAutomations?: boolean;
}

/** What a dry run found, or what the apply did so far: the same shape, so they compare line by line. */
export interface ImportCounts {
  rows: number;
  created: number;
  updated: number;
  /** Per field (`first_name`, `attributes.plan`): how many existing contacts it changes. */
  updatedFields: Record<string, number>;
  unchanged: number;
  refused: Partial<Record<ImportRefusal, number>>;
  /** Subscriptions the import makes (source `import`). */
  subscribed: number;
}

/** A CSV file brought into a workspace: what it holds, how it maps, what a dry run found and how far the apply got. */
export const imports = pgTable(
  "imports",
  {
    id: id("id").primaryKey(),
    workspaceId: id("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    /** The member who uploaded it; null for the admin CLI. */
    createdBy: id("created_by").references(() => users.id, { onDelete: "set null" }),
    fileName: text("file_name").notNull(),
    byteSize: bigint("byte_size", { mode: "number" }).notNull(),
    encoding: text("encoding", { enum: IMPORT_ENCODINGS }).notNull(),
    delimiter: text("delimiter").notNull(),
    header: jsonb("header").$type<string[]>().notNull(),
    /** The first data rows, for the mapping screen. */
    preview: jsonb("preview").$type<string[][]>().notNull(),
    /** Data rows (the header is not one). */
    rowCount: integer("row_count").notNull(),
    status: text("status", { enum: IMPORT_STATUSES }).notNull(),
    /** Per column, the field it fills: `email`, `first_name`, `last_name`, `attributes.<key>`, or "" to ignore it. */
    mapping: jsonb("mapping").$type<string[]>(),
    options: jsonb("options").$type<ImportOptions>(),
    checked: jsonb("checked").$type<ImportCounts>(),
    applied: jsonb("applied").$type<ImportCounts>(),
    /** The last row number of the unbroken run the apply has written from the start (see AppliedRows). */
    appliedThrough: integer("applied_through").notNull().default(0),
    /** Chunks applied past appliedThrough, each (from, to], in order: chunks commit in whichever order they finish. */
    appliedAhead: jsonb("applied_ahead").$type<[from: number, to: number][]>().notNull().default([]),
    error: text("error"),
    checkedAt: at("checked_at"),
    /** The member who stated, at the dry run, that the sender holds consent for its topics; null for the admin CLI. */
    consentAssertedBy: id("consent_asserted_by").references(() => users.id, { onDelete: "set null" }),
    /** When consent for its topics was stated: the dry run that set them; null when it subscribes to none. */
    consentAssertedAt: at("consent_asserted_at"),
    startedAt: at("started_at"),
    finishedAt: at("finished_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("imports_workspace_idx").on(t.workspaceId, t.id)],
);

/** The uploaded file's bytes, in order: kept with the import so any process can read it and it goes with its workspace. */
export const importFileParts = pgTable(
  "import_file_parts",
  {
    importId: id("import_id")
      .notNull()
      .references(() => imports.id, { onDelete: "cascade" }),
    part: integer("part").notNull(),
    data: bytea("data").notNull(),
  },
  (t) => [primaryKey({ columns: [t.importId, t.part] })],
);

/**
 * The file's rows as the mapping reads them (row 1 is the header, so row
 * numbers match a spreadsheet's). Written by the dry run; `refusal` is set
 * for rows that will not be applied, by the dry run or, for changes since, by
 * the apply.
 */
export const importRows = pgTable(
  "import_rows",
  {
    // No foreign key: the dry run COPYs a million rows and a key is checked row by row (about a
    // third of the COPY). Only the dry run writes rows, for its import; deleteNextChunk deletes them
    // before their import.
    importId: id("import_id").notNull(),
    rowNumber: integer("row_number").notNull(),
    email: text("email").notNull(),
    firstName: text("first_name"),
    lastName: text("last_name"),
    /** The time zone as lib/contacts/time-zone.ts names it. */
    timeZone: text("time_zone"),
    /** Typed values of the mapped attributes; empty cells are left out. */
    attributes: jsonb("attributes").$type<Record<string, AttributeValue>>().notNull(),
    refusal: text("refusal", { enum: IMPORT_REFUSALS }),
    /** The refusal in words: the bad value, the row that won. */
    detail: text("detail"),
  },
  (t) => [primaryKey({ columns: [t.importId, t.rowNumber] })],
);

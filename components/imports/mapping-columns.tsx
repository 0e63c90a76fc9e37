"use client";

import { useState } from "react";

import type { DefineAttribute } from "@/components/attributes/define-attribute-dialog";
import { cn } from "@/components/ui/cn";
import { NativeSelect } from "@/components/ui/input";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { ImportField } from "@/lib/imports/import-fields";

import { NewAttributeForm } from "./new-attribute-form";

// The chooser's option that opens the new-attribute form; no field key starts with "+".
const NEW_ATTRIBUTE = "+new-attribute";

/**
 * Per column of the file: its name, its first cells and the field it fills. A column whose field does
 * not exist yet gets one made on the spot ("New attribute…"), and then fills it.
 */
export function MappingColumns({
  workspaceId,
  header,
  preview,
  fields: shownFields,
  mapping,
  setMapping,
  errors,
  defineAttribute,
}: {
  workspaceId: string;
  header: string[];
  preview: string[][];
  fields: ImportField[];
  mapping: string[];
  setMapping: (update: (current: string[]) => string[]) => void;
  errors: Record<string, string>;
  defineAttribute: DefineAttribute;
}) {
  // Attributes made here are listed at once; the page's next render lists them too.
  const [made, setMade] = useState<ImportField[]>([]);
  const [creatingFor, setCreatingFor] = useState<number | null>(null);
  const fields = [...shownFields, ...made.filter((field) => !shownFields.some((f) => f.key === field.key))];
  const taken = new Set(mapping.filter(Boolean));
  const choose = (column: number, key: string) =>
    setMapping((current) => header.map((_, i) => (i === column ? key : (current[i] ?? ""))));
  const nameOf = (column: number) => header[column] || `Column ${column + 1}`;
  const cellsOf = (column: number) => preview.map((row) => row[column] ?? "").filter(Boolean);

  return (
    // Below sm each column is a stacked block, so the field choice stays on screen at phone width.
    <Table className="max-sm:block max-sm:[&_tbody]:block">
      <TableHeader className="max-sm:hidden">
        <TableRow>
          <TableHead>Column in your file</TableHead>
          <TableHead>First rows</TableHead>
          <TableHead className="w-72">Imports as</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {header.map((name, column) => (
          // A row with the new-attribute form open is tall: its name and cells stay level with the chooser.
          <TableRow
            key={column}
            className={cn(
              "max-sm:grid max-sm:gap-1 max-sm:py-2",
              creatingFor === column && "sm:[&>td]:align-top sm:[&>td:not(:last-child)]:pt-4",
            )}
          >
            <TableCell className="font-medium max-sm:block max-sm:py-0">{nameOf(column)}</TableCell>
            <TableCell className="max-w-xs truncate text-muted-foreground max-sm:block max-sm:max-w-none max-sm:py-0">
              {cellsOf(column).slice(0, 3).join(" · ") || "—"}
            </TableCell>
            {/* Wrapping: the form's hints and errors are sentences, and the cell must not widen the table. */}
            <TableCell className="whitespace-normal max-sm:block">
              <NativeSelect
                aria-label={`Field for column ${name || column + 1}`}
                value={creatingFor === column ? NEW_ATTRIBUTE : (mapping[column] ?? "")}
                aria-invalid={errors[`mapping.${column}`] ? true : undefined}
                onChange={(event) => {
                  if (event.target.value === NEW_ATTRIBUTE) return setCreatingFor(column);
                  if (creatingFor === column) setCreatingFor(null);
                  choose(column, event.target.value);
                }}
              >
                <option value="">Don’t import</option>
                {fields.map((field) => (
                  <option
                    key={field.key}
                    value={field.key}
                    disabled={taken.has(field.key) && mapping[column] !== field.key}
                  >
                    {field.label}
                    {field.type ? ` (${field.type})` : ""}
                  </option>
                ))}
                <option value={NEW_ATTRIBUTE}>New attribute…</option>
              </NativeSelect>
              {creatingFor === column && (
                <NewAttributeForm
                  workspaceId={workspaceId}
                  column={nameOf(column)}
                  cells={cellsOf(column)}
                  action={defineAttribute}
                  onCancel={() => setCreatingFor(null)}
                  onDefined={({ key, type }) => {
                    const field = { key: `attributes.${key}`, label: key, type };
                    setMade((current) => [...current.filter((f) => f.key !== field.key), field]);
                    setCreatingFor(null);
                    choose(column, field.key);
                  }}
                />
              )}
              {errors[`mapping.${column}`] && (
                <p role="alert" className="mt-1 text-sm text-destructive">
                  {errors[`mapping.${column}`]}
                </p>
              )}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

"use client";

import {
  createColumnHelper,
  metaHelper,
  rowSortingFeature,
  tableFeatures,
  type SortingState,
} from "@tanstack/react-table";
import Link from "next/link";
import type { ReactNode } from "react";

import { ContactStatusBadge } from "@/components/contacts/contact-status-badge";
import { When } from "@/components/ui/when";
import type { AttributeKind } from "@/lib/contacts/attribute-schemas";
import { attributeText } from "@/lib/contacts/attribute-text";
import type { ContactRow, ContactSort } from "@/lib/contacts/contact-list-query";

/** A column's classes, for its head and its cells alike. */
type ContactColumnMeta = { className?: string };
export const contactTableFeatures = tableFeatures({ rowSortingFeature, columnMeta: metaHelper<ContactColumnMeta>() });
const column = createColumnHelper<typeof contactTableFeatures, ContactRow>();

export type AttributeColumn = { key: string; type: AttributeKind };

// The server sorts (every order a keyset on an index, lib/contacts/list-contacts.ts); the table's
// sorting state mirrors the URL's `sort`. Columns not in this table do not sort.
export const SORTING: Record<ContactSort, SortingState> = {
  newest: [{ id: "createdAt", desc: true }],
  oldest: [{ id: "createdAt", desc: false }],
  email: [{ id: "email", desc: false }],
  email_desc: [{ id: "email", desc: true }],
  name: [{ id: "name", desc: false }],
  name_desc: [{ id: "name", desc: true }],
  status: [{ id: "status", desc: false }],
  status_desc: [{ id: "status", desc: true }],
};

export function sortOf(sorting: SortingState): ContactSort {
  const [first] = sorting;
  if (first?.id === "email" || first?.id === "name" || first?.id === "status")
    return first.desc ? `${first.id}_desc` : first.id;
  return first && !first.desc ? "oldest" : "newest";
}

/**
 * A long text (an address, a name, a text attribute) wraps past 20rem (15rem) instead of widening
 * the table without end; below 14rem (7rem) it does not wrap (a usual address fits on one line), and on a phone the table scrolls inside its own box
 * instead. The widths sit on a block inside the cell: browsers ignore min-width on table cells.
 */
function Wrapping({ children, narrow = false }: { children: ReactNode; narrow?: boolean }) {
  const widths = narrow ? "max-w-60 min-w-28" : "max-w-80 min-w-56";
  return <span className={`block whitespace-normal [overflow-wrap:anywhere] ${widths}`}>{children}</span>;
}
const dash = <span className="text-muted-foreground">—</span>;

/**
 * The table's columns: the address links to the contact's page; address, name, status and date
 * sort; then the chosen attributes, in the order chosen. A leading column (a row's checkbox) can be
 * put first in this list without touching the rest.
 */
export function contactColumns(workspaceId: string, attributes: AttributeColumn[]) {
  return column.columns([
    column.accessor("email", {
      header: "Email",
      sortDescFirst: false,
      cell: (info) => (
        <Wrapping>
          <Link
            className="font-medium text-primary hover:underline"
            href={`/w/${workspaceId}/contacts/${info.row.original.id}`}
          >
            {info.getValue()}
          </Link>
        </Wrapping>
      ),
    }),
    column.accessor("name", {
      header: "Name",
      // A–Z first, whatever the first row holds (TanStack guesses the direction from it, and a missing name reads as Z–A).
      sortDescFirst: false,
      cell: (info) => {
        const name = info.getValue();
        return name ? <Wrapping narrow>{name}</Wrapping> : dash;
      },
    }),
    column.accessor("status", {
      header: "Status",
      sortDescFirst: false,
      cell: (info) => <ContactStatusBadge status={info.getValue()} />,
    }),
    column.accessor("createdAt", {
      header: "Added",
      sortDescFirst: true,
      meta: { className: "text-muted-foreground" },
      cell: (info) => <When at={info.getValue()} />,
    }),
    ...attributes.map(({ key, type }) =>
      column.accessor((row) => row.attributes[key], {
        id: `attribute:${key}`,
        header: key,
        enableSorting: false,
        meta: { className: type === "number" ? "text-right tabular-nums" : undefined },
        cell: (info) => {
          const text = attributeText(type, info.getValue());
          return text === null ? dash : type === "string" ? <Wrapping narrow>{text}</Wrapping> : text;
        },
      }),
    ),
  ]);
}

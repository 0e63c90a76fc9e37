"use client";

import { createColumnHelper, rowSortingFeature, tableFeatures, type SortingState } from "@tanstack/react-table";
import Link from "next/link";

import { ContactStatusBadge } from "@/components/contacts/contact-status-badge";
import { When } from "@/components/ui/when";
import type { ContactRow, ContactSort } from "@/lib/contacts/contact-list-query";

export const contactTableFeatures = tableFeatures({ rowSortingFeature });
const column = createColumnHelper<typeof contactTableFeatures, ContactRow>();

// The server sorts by creation (newest first by default) or by address; the table's sorting state mirrors the URL's `sort`.
export const SORTING: Record<ContactSort, SortingState> = {
  newest: [{ id: "createdAt", desc: true }],
  oldest: [{ id: "createdAt", desc: false }],
  email: [{ id: "email", desc: false }],
  email_desc: [{ id: "email", desc: true }],
};

export function sortOf(sorting: SortingState): ContactSort {
  const [first] = sorting;
  if (first?.id === "email") return first.desc ? "email_desc" : "email";
  return first && !first.desc ? "oldest" : "newest";
}

/** The table's columns: the address links to the contact's page; only the address and the date sort. */
export function contactColumns(workspaceId: string) {
  return column.columns([
    column.accessor("email", {
      header: "Email",
      cell: (info) => (
        <Link
          className="font-medium text-primary hover:underline"
          href={`/w/${workspaceId}/contacts/${info.row.original.id}`}
        >
          {info.getValue()}
        </Link>
      ),
    }),
    column.accessor("name", { header: "Name", enableSorting: false, cell: (info) => info.getValue() ?? "—" }),
    column.accessor("status", {
      header: "Status",
      enableSorting: false,
      cell: (info) => <ContactStatusBadge status={info.getValue()} />,
    }),
    column.accessor("createdAt", {
      header: "Added",
      sortDescFirst: true,
      cell: (info) => <When at={info.getValue()} />,
    }),
  ]);
}

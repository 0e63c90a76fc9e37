"use client";

import type { Header } from "@tanstack/react-table";
import { ArrowDown, ArrowUp, ArrowUpDown } from "lucide-react";
import type { ReactNode } from "react";

import { TableHead } from "@/components/ui/table";
import type { ContactRow, ContactSort } from "@/lib/contacts/contact-list-query";

import { follow } from "./contact-list-links";
import { sortOf, type contactTableFeatures } from "./contacts-table-columns";

/** A column head that sorts by its column when clicked, as a link to the sorted page when JavaScript is off. */
export function ContactsSortableHead({
  header,
  hrefFor,
  className,
  children,
}: {
  header: Header<typeof contactTableFeatures, ContactRow, unknown>;
  hrefFor: (sort: ContactSort) => string;
  className?: string;
  children: ReactNode;
}) {
  const { column: col } = header;
  if (!col.getCanSort()) return <TableHead className={className}>{children}</TableHead>;
  const sorted = col.getIsSorted();
  const next = col.getNextSortingOrder();
  const nextSort = sortOf([{ id: col.id, desc: next === "desc" }]);
  const Icon = sorted === "asc" ? ArrowUp : sorted === "desc" ? ArrowDown : ArrowUpDown;
  return (
    <TableHead
      className={className}
      aria-sort={sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : "none"}
    >
      <a
        href={hrefFor(nextSort)}
        onClick={follow(() => col.toggleSorting(next === "desc"))}
        className="inline-flex items-center gap-1 hover:text-foreground"
      >
        {children}
        <Icon className="size-3.5" aria-hidden />
        <span className="sr-only">
          {sorted
            ? `, sorted ${sorted === "asc" ? "ascending" : "descending"}; sort ${next === "desc" ? "descending" : "ascending"}`
            : `; sort ${next === "desc" ? "descending" : "ascending"}`}
        </span>
      </a>
    </TableHead>
  );
}

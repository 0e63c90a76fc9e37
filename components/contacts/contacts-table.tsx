"use client";

import { functionalUpdate, useTable } from "@tanstack/react-table";
import { ChevronRight, Contact, Search } from "lucide-react";
import { usePathname, useSearchParams } from "next/navigation";
import { useMemo, useState, type ReactNode } from "react";

import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { BulkActionView } from "@/lib/contacts/bulk-action-view";
import {
  contactCountQuery,
  contactListSearchParams,
  readContactListQuery,
  shownAttributeColumns,
  type ContactListQuery,
  type ContactPage,
} from "@/lib/contacts/contact-list-query";

import type { StartBulkAction } from "./bulk-action-dialog";
import { BulkActionProgress } from "./bulk-action-progress";
import { contactListHref, follow } from "./contact-list-links";
import { ContactsBulkBar } from "./contacts-bulk-bar";
import { ContactsColumnsMenu } from "./contacts-columns-menu";
import { ContactsSortableHead } from "./contacts-sortable-head";
import { contactColumns, contactTableFeatures, SORTING, sortOf, type AttributeColumn } from "./contacts-table-columns";
import { ContactsToolbar, type FilterOption } from "./contacts-toolbar";
import { ContactsTotalRead } from "./contacts-total";
import { useContactPage } from "./use-contact-page";

/**
 * The contacts table: search, filters, total, sorting, attribute columns and cursor pages. The
 * first page comes rendered from the server, its total streamed in after it (`initialTotal`);
 * every change after that reads JSON (TanStack Query) and writes the URL, so a reload or a shared
 * link shows the same rows and columns, and the form still works without JavaScript.
 */
export function ContactsTable({
  workspaceId,
  topics,
  lists,
  initialQuery,
  initialPage,
  initialTotal,
  attributes,
  addContact,
  bulk,
}: {
  workspaceId: string;
  topics: FilterOption[];
  lists: FilterOption[];
  initialQuery: ContactListQuery;
  initialPage: ContactPage;
  /** The total for `initialQuery`'s filters, as the server streams it in. */
  initialTotal: ReactNode;
  /** The workspace's custom attributes, which the Columns menu offers. */
  attributes: AttributeColumn[];
  addContact: ReactNode;
  /** Starts a bulk action on ticked contacts or on the whole filter; those running are shown with their progress. */
  bulk: { action: StartBulkAction; running: BulkActionView[] };
}) {
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const query = useMemo(() => readContactListQuery(Object.fromEntries(searchParams)), [searchParams]);

  const navigate = (next: ContactListQuery, how: "push" | "replace" = "push") => {
    window.history[how === "push" ? "pushState" : "replaceState"](null, "", contactListHref(pathname, next));
  };
  // Ticked contacts, or the whole filter; any change of the filters clears it, so an action never
  // reaches people the person did not see selected.
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [wholeFilter, setWholeFilter] = useState(false);
  const [runs, setRuns] = useState<BulkActionView[]>(bulk.running);
  const clearSelection = () => {
    setPicked(new Set());
    setWholeFilter(false);
  };
  const refine = (change: Partial<ContactListQuery>, how?: "push" | "replace") => {
    clearSelection();
    navigate({ ...query, ...change, after: undefined }, how);
  };

  const result = useContactPage({ workspaceId, query, initialQuery, initialPage });

  const shown = shownAttributeColumns(query.columns, attributes);
  const shownKeys = shown.map((attribute) => attribute.key).join(",");
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `shown` is new each render; its keys say when it changed
  const columns = useMemo(() => contactColumns(workspaceId, shown), [workspaceId, shownKeys]);
  const countQuery = contactCountQuery(query);
  const initialCounted =
    contactListSearchParams(countQuery).toString() ===
    contactListSearchParams(contactCountQuery(initialQuery)).toString();
  const sorting = SORTING[query.sort ?? "newest"];
  const table = useTable({
    features: contactTableFeatures,
    columns,
    data: result.data?.rows ?? initialPage.rows,
    getRowId: (row) => row.id,
    state: { sorting },
    manualSorting: true,
    enableSortingRemoval: false,
    onSortingChange: (updater) => refine({ sort: sortOf(functionalUpdate(updater, sorting)) }),
  });

  const filtered = Boolean(query.q || query.status || query.topic || query.list);
  const page = result.data ?? initialPage;
  const pageIds = page.rows.map((row) => row.id);
  const wholePage = pageIds.length > 0 && pageIds.every((id) => picked.has(id));
  const tick = (ids: string[], on: boolean) => {
    setWholeFilter(false);
    setPicked((before) => {
      const next = new Set(before);
      for (const id of ids)
        if (on) next.add(id);
        else next.delete(id);
      return next;
    });
  };

  return (
    <>
      <ContactsToolbar
        workspaceId={workspaceId}
        topics={topics}
        lists={lists}
        query={query}
        filtered={filtered}
        fetching={result.isFetching}
        refine={refine}
        navigate={navigate}
      />
      <div className="mb-2 flex items-center justify-between gap-3">
        {initialCounted ? initialTotal : <ContactsTotalRead workspaceId={workspaceId} query={countQuery} />}
        <ContactsColumnsMenu
          workspaceId={workspaceId}
          attributes={attributes}
          shown={shown.map((attribute) => attribute.key)}
          onChange={(keys) => navigate({ ...query, columns: keys.length > 0 ? keys : undefined }, "replace")}
        />
      </div>
      {runs.map((run) => (
        <BulkActionProgress key={run.id} workspaceId={workspaceId} initial={run} />
      ))}
      {(picked.size > 0 || wholeFilter) && (
        <ContactsBulkBar
          workspaceId={workspaceId}
          picked={picked.size}
          wholeFilter={wholeFilter}
          canTakeWholeFilter={wholePage && Boolean(page.nextAfter || query.after)}
          takeWholeFilter={() => setWholeFilter(true)}
          clear={clearSelection}
          target={wholeFilter ? { filters: countQuery } : { contactIds: [...picked] }}
          lists={lists}
          topics={topics}
          action={bulk.action}
          onStarted={(id, kind) => {
            clearSelection();
            setRuns((before) => [
              { id, kind, status: "running", total: null, done: 0, error: null },
              ...before.filter((run) => run.id !== id),
            ]);
          }}
        />
      )}
      {result.isError && (
        <p role="alert" className="mb-4 text-sm text-destructive">
          {result.error.message}
        </p>
      )}
      {page.rows.length === 0 && !query.after ? (
        filtered ? (
          <EmptyState
            icon={<Search />}
            title="No contact matches"
            action={
              <Button variant="outline" onClick={() => navigate({ sort: query.sort, columns: query.columns })}>
                Clear search and filters
              </Button>
            }
          >
            Try another search or fewer filters; a search matches the start of an address, a first or a last name.
          </EmptyState>
        ) : (
          <EmptyState icon={<Contact />} title="No contacts yet" action={addContact}>
            Contacts arrive through your signup form (<code>POST /v1/subscribe</code>), the API (
            <code>POST /v1/contacts</code>) or an import. You can also add one here.
          </EmptyState>
        )
      ) : (
        <>
          <Table aria-busy={result.isFetching}>
            <TableHeader>
              {table.getHeaderGroups().map((group) => (
                <TableRow key={group.id}>
                  <TableHead className="w-8">
                    <input
                      type="checkbox"
                      className="size-4 accent-primary"
                      aria-label="Select every contact on this page"
                      checked={wholePage || wholeFilter}
                      onChange={(event) => tick(pageIds, event.target.checked)}
                    />
                  </TableHead>
                  {group.headers.map((header) => (
                    <ContactsSortableHead
                      key={header.id}
                      header={header}
                      className={header.column.columnDef.meta?.className}
                      hrefFor={(sort) => contactListHref(pathname, { ...query, sort, after: undefined })}
                    >
                      <table.FlexRender header={header} />
                    </ContactsSortableHead>
                  ))}
                </TableRow>
              ))}
            </TableHeader>
            <TableBody>
              {table.getRowModel().rows.map((row) => (
                <TableRow key={row.id}>
                  <TableCell className="w-8">
                    <input
                      type="checkbox"
                      className="size-4 accent-primary"
                      aria-label={`Select ${row.original.email}`}
                      checked={wholeFilter || picked.has(row.id)}
                      onChange={(event) => tick([row.id], event.target.checked)}
                    />
                  </TableCell>
                  {row.getAllCells().map((cell) => (
                    <TableCell key={cell.id} className={cell.column.columnDef.meta?.className}>
                      <table.FlexRender cell={cell} />
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
          {(query.after || page.nextAfter) && (
            <nav aria-label="Pages" className="mt-4 flex justify-end gap-2">
              {query.after && (
                <Button asChild variant="outline" size="sm">
                  <a
                    href={contactListHref(pathname, { ...query, after: undefined })}
                    onClick={follow(() => navigate({ ...query, after: undefined }))}
                  >
                    First page
                  </a>
                </Button>
              )}
              {page.nextAfter && (
                <Button asChild variant="outline" size="sm">
                  <a
                    href={contactListHref(pathname, { ...query, after: page.nextAfter })}
                    onClick={follow(() => navigate({ ...query, after: page.nextAfter ?? undefined }))}
                  >
                    Next page
                    <ChevronRight />
                  </a>
                </Button>
              )}
            </nav>
          )}
        </>
      )}
    </>
  );
}

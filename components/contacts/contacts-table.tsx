"use client";

import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  createColumnHelper,
  functionalUpdate,
  rowSortingFeature,
  tableFeatures,
  useTable,
  type Header,
  type SortingState,
} from "@tanstack/react-table";
import { ArrowDown, ArrowUp, ArrowUpDown, ChevronRight, Contact, Download, Search } from "lucide-react";
import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";
import { useEffect, useMemo, useRef, useState, type FormEvent, type MouseEvent, type ReactNode } from "react";

import { ContactStatusBadge } from "@/components/contacts/contact-status-badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Input, NativeSelect } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { When } from "@/components/ui/when";
import {
  contactListSearchParams,
  readContactListQuery,
  type ContactListQuery,
  type ContactPage,
  type ContactRow,
  type ContactSort,
} from "@/lib/contacts/contact-list-query";
import { CONTACT_STATUSES } from "@/lib/contacts/contact-status";
import { dashboardFiles, dashboardKeys, dashboardReads } from "@/lib/dashboard/dashboard-reads";

type Option = { id: string; name: string };

const features = tableFeatures({ rowSortingFeature });
const column = createColumnHelper<typeof features, ContactRow>();

// The server sorts by creation (newest first by default) or by address; the table's sorting state mirrors the URL's `sort`.
const SORTING: Record<ContactSort, SortingState> = {
  newest: [{ id: "createdAt", desc: true }],
  oldest: [{ id: "createdAt", desc: false }],
  email: [{ id: "email", desc: false }],
  email_desc: [{ id: "email", desc: true }],
};

function sortOf(sorting: SortingState): ContactSort {
  const [first] = sorting;
  if (first?.id === "email") return first.desc ? "email_desc" : "email";
  return first && !first.desc ? "oldest" : "newest";
}

const SEARCH_PAUSE_MS = 300;

/**
 * The contacts table: search, filters, sorting and cursor pages. The first
 * page comes rendered from the server; every change after that reads JSON
 * (TanStack Query) and writes the URL, so a reload or a shared link shows the
 * same rows, and the form still works without JavaScript.
 */
export function ContactsTable({
  workspaceId,
  topics,
  lists,
  initialQuery,
  initialPage,
  addContact,
}: {
  workspaceId: string;
  topics: Option[];
  lists: Option[];
  initialQuery: ContactListQuery;
  initialPage: ContactPage;
  addContact: ReactNode;
}) {
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const query = useMemo(() => readContactListQuery(Object.fromEntries(searchParams)), [searchParams]);
  const queryClient = useQueryClient();

  const navigate = (next: ContactListQuery, how: "push" | "replace" = "push") => {
    const params = contactListSearchParams(next).toString();
    window.history[how === "push" ? "pushState" : "replaceState"](
      null,
      "",
      params ? `${pathname}?${params}` : pathname,
    );
  };
  const refine = (change: Partial<ContactListQuery>, how?: "push" | "replace") =>
    navigate({ ...query, ...change, after: undefined }, how);

  const isInitial = contactListSearchParams(query).toString() === contactListSearchParams(initialQuery).toString();
  const result = useQuery({
    queryKey: dashboardKeys.contacts(workspaceId, query),
    queryFn: ({ signal }) => dashboardReads.contacts(workspaceId, query, signal),
    initialData: isInitial ? initialPage : undefined,
    placeholderData: keepPreviousData,
    // New signups appear on the first page while it is open; later pages stay put while read.
    refetchInterval: query.after ? false : 30_000,
  });

  // A server action (adding a contact) renders the page anew: what was read before is stale.
  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    void queryClient.invalidateQueries({ queryKey: dashboardKeys.contacts(workspaceId) });
  }, [initialPage, queryClient, workspaceId]);

  // The search box follows the URL (back, forward, Clear) unless it already says the same.
  const [text, setText] = useState(query.q ?? "");
  const [searched, setSearched] = useState(query.q);
  if (searched !== query.q) {
    setSearched(query.q);
    if ((text.trim() || undefined) !== query.q) setText(query.q ?? "");
  }
  useEffect(() => {
    const typed = text.trim() || undefined;
    if (typed === query.q) return;
    const timer = setTimeout(() => refine({ q: typed }, "replace"), SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only what was typed starts a search
  }, [text]);

  const columns = useMemo(
    () =>
      column.columns([
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
      ]),
    [workspaceId],
  );
  const sorting = SORTING[query.sort ?? "newest"];
  const table = useTable({
    features,
    columns,
    data: result.data?.rows ?? initialPage.rows,
    getRowId: (row) => row.id,
    state: { sorting },
    manualSorting: true,
    enableSortingRemoval: false,
    onSortingChange: (updater) => refine({ sort: sortOf(functionalUpdate(updater, sorting)) }),
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    refine({ q: text.trim() || undefined });
  };
  const filtered = Boolean(query.q || query.status || query.topic || query.list);
  const page = result.data ?? initialPage;

  return (
    <>
      <form
        method="get"
        onSubmit={onSubmit}
        className="mb-4 flex flex-wrap items-end gap-3"
        role="search"
        aria-label="Filter contacts"
      >
        <div className="grid gap-1.5">
          <Label htmlFor="contacts-q">Search</Label>
          <Input
            id="contacts-q"
            name="q"
            type="search"
            value={text}
            onChange={(event) => setText(event.target.value)}
            placeholder="Email or name starts with…"
            className="w-64"
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="contacts-status">Status</Label>
          <NativeSelect
            id="contacts-status"
            name="status"
            value={query.status ?? ""}
            onChange={(event) => refine({ status: (event.target.value || undefined) as ContactListQuery["status"] })}
            className="w-40"
          >
            <option value="">Any status</option>
            {CONTACT_STATUSES.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </NativeSelect>
        </div>
        <FilterSelect
          id="contacts-topic"
          label="Subscribed to"
          name="topic"
          anyLabel="Any topic"
          options={topics}
          value={query.topic}
          onChange={(topic) => refine({ topic })}
        />
        <FilterSelect
          id="contacts-list"
          label="On list"
          name="list"
          anyLabel="Any list"
          options={lists}
          value={query.list}
          onChange={(list) => refine({ list })}
        />
        {query.sort && <input type="hidden" name="sort" value={query.sort} />}
        <Button type="submit" variant="secondary">
          <Search />
          Apply
        </Button>
        {filtered && (
          <Button type="button" variant="ghost" onClick={() => navigate({ sort: query.sort })}>
            Clear
          </Button>
        )}
        {result.isFetching && (
          <span role="status" className="self-center text-sm text-muted-foreground">
            Loading…
          </span>
        )}
        <Button asChild variant="outline" className="ml-auto">
          <a href={dashboardFiles.contactsExport(workspaceId, query)} download>
            <Download />
            {filtered ? "Export these contacts" : "Export all contacts"}
          </a>
        </Button>
      </form>
      {result.isError && (
        <p role="alert" className="mb-4 text-sm text-destructive">
          {result.error.message}
        </p>
      )}
      {page.rows.length === 0 && !query.after ? (
        filtered ? (
          <EmptyState icon={<Search />} title="No contact matches">
            Try another search or fewer filters.
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
                  {group.headers.map((header) => (
                    <SortableHead
                      key={header.id}
                      header={header}
                      hrefFor={(sort) => hrefOf(pathname, { ...query, sort, after: undefined })}
                    >
                      <table.FlexRender header={header} />
                    </SortableHead>
                  ))}
                </TableRow>
              ))}
            </TableHeader>
            <TableBody>
              {table.getRowModel().rows.map((row) => (
                <TableRow key={row.id}>
                  {row.getAllCells().map((cell) => (
                    <TableCell
                      key={cell.id}
                      className={cell.column.id === "createdAt" ? "text-muted-foreground" : undefined}
                    >
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
                    href={hrefOf(pathname, { ...query, after: undefined })}
                    onClick={follow(() => navigate({ ...query, after: undefined }))}
                  >
                    First page
                  </a>
                </Button>
              )}
              {page.nextAfter && (
                <Button asChild variant="outline" size="sm">
                  <a
                    href={hrefOf(pathname, { ...query, after: page.nextAfter })}
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

function hrefOf(pathname: string, query: ContactListQuery): string {
  const params = contactListSearchParams(query).toString();
  return params ? `${pathname}?${params}` : pathname;
}

/** A link that also works without JavaScript; with it, the table changes in place. */
function follow(go: () => void) {
  return (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    go();
  };
}

function SortableHead({
  header,
  hrefFor,
  children,
}: {
  header: Header<typeof features, ContactRow, unknown>;
  hrefFor: (sort: ContactSort) => string;
  children: ReactNode;
}) {
  const { column: col } = header;
  if (!col.getCanSort()) return <TableHead>{children}</TableHead>;
  const sorted = col.getIsSorted();
  const next = col.getNextSortingOrder();
  const nextSort = sortOf([{ id: col.id, desc: next === "desc" }]);
  const Icon = sorted === "asc" ? ArrowUp : sorted === "desc" ? ArrowDown : ArrowUpDown;
  return (
    <TableHead aria-sort={sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : "none"}>
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

function FilterSelect({
  id,
  label,
  name,
  anyLabel,
  options,
  value,
  onChange,
}: {
  id: string;
  label: string;
  name: string;
  anyLabel: string;
  options: Option[];
  value: string | undefined;
  onChange: (value: string | undefined) => void;
}) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <NativeSelect
        id={id}
        name={name}
        value={value ?? ""}
        onChange={(event) => onChange(event.target.value || undefined)}
        className="w-48"
      >
        <option value="">{anyLabel}</option>
        {options.map((option) => (
          <option key={option.id} value={option.id}>
            {option.name}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}

"use client";

import { Download, Search } from "lucide-react";
import { useEffect, useState, type FormEvent } from "react";

import { Button } from "@/components/ui/button";
import { Input, NativeSelect } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import type { ContactListQuery } from "@/lib/contacts/contact-list-query";
import { CONTACT_STATUS_LABELS, CONTACT_STATUSES } from "@/lib/contacts/contact-status";
import { dashboardFiles } from "@/lib/dashboard/dashboard-reads";

export type FilterOption = { id: string; name: string };

const SEARCH_PAUSE_MS = 300;

/**
 * Search, filters and export above the contacts table. It is a GET form, so
 * it works without JavaScript; with it, every change writes the URL at once
 * and typing searches after a pause.
 */
export function ContactsToolbar({
  workspaceId,
  topics,
  lists,
  query,
  filtered,
  fetching,
  refine,
  navigate,
}: {
  workspaceId: string;
  topics: FilterOption[];
  lists: FilterOption[];
  query: ContactListQuery;
  filtered: boolean;
  fetching: boolean;
  refine: (change: Partial<ContactListQuery>, how?: "push" | "replace") => void;
  navigate: (next: ContactListQuery) => void;
}) {
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

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    refine({ q: text.trim() || undefined });
  };

  return (
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
          {/* The badges' words; a native option cannot carry the badge's colour in every browser. */}
          {CONTACT_STATUSES.map((value) => (
            <option key={value} value={value}>
              {CONTACT_STATUS_LABELS[value].label}
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
      {query.columns && <input type="hidden" name="columns" value={query.columns.join(",")} />}
      <Button type="submit" variant="secondary">
        <Search />
        Apply
      </Button>
      {filtered && (
        <Button type="button" variant="ghost" onClick={() => navigate({ sort: query.sort, columns: query.columns })}>
          Clear
        </Button>
      )}
      {fetching && (
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
  options: FilterOption[];
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

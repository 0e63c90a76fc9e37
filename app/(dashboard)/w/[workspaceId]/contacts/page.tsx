import type { Metadata } from "next";
import Link from "next/link";
import { Contact, Search } from "lucide-react";
import { AddContactDialog } from "@/components/contacts/add-contact-dialog";
import { ContactStatusBadge } from "@/components/contacts/contact-status-badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Input, NativeSelect } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { PageHeader } from "@/components/ui/page-header";
import { Pager } from "@/components/ui/pager";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { When } from "@/components/ui/when";
import { CONTACT_STATUSES, type ContactStatus } from "@/lib/contacts/contact-status";
import { listContacts } from "@/lib/contacts/list-contacts";
import { findOrNull } from "@/lib/dashboard/find-or-null";
import { listFilterOptions } from "@/lib/dashboard/list-filter-options";
import { getWorkspaceSession } from "@/lib/dashboard/workspace-session";
import { addContactAction } from "./actions";

export const metadata: Metadata = { title: "Contacts" };

const PAGE_SIZE = 50;

type Query = { q?: string; status?: string; topic?: string; list?: string; after?: string };

function one(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

export default async function ContactsPage({ params, searchParams }: { params: Promise<{ workspaceId: string }>; searchParams: Promise<Query> }) {
  const { workspaceId } = await params;
  const query = await searchParams;
  const { ctx, actor } = await getWorkspaceSession(workspaceId);
  const search = one(query.q);
  const status = CONTACT_STATUSES.includes(query.status as ContactStatus) ? (query.status as ContactStatus) : undefined;
  const topicId = one(query.topic);
  const listId = one(query.list);
  const after = one(query.after) ?? null;
  const [{ topics, lists }, rows] = await Promise.all([
    listFilterOptions(ctx, actor),
    // A topic or list id of another workspace finds nothing, like an empty filter result.
    findOrNull(listContacts(ctx, actor, { search, status, topicId, listId }, { limit: PAGE_SIZE, afterId: after })),
  ]);
  const page = (rows ?? []).slice(0, PAGE_SIZE);
  const filtered = Boolean(search || status || topicId || listId);
  const add = <AddContactDialog workspaceId={workspaceId} topics={topics} action={addContactAction} />;
  return (
    <>
      <PageHeader crumbs={[{ label: "Overview", href: `/w/${workspaceId}` }, { label: "Contacts" }]} title="Contacts" description="Everyone in this workspace, once per address, with their consent." actions={add} />
      <form method="get" className="mb-4 flex flex-wrap items-end gap-3" role="search" aria-label="Filter contacts">
        <div className="grid gap-1.5">
          <Label htmlFor="contacts-q">Search</Label>
          <Input id="contacts-q" name="q" defaultValue={search} placeholder="Email or name starts with…" className="w-64" />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="contacts-status">Status</Label>
          <NativeSelect id="contacts-status" name="status" defaultValue={status ?? ""} className="w-40">
            <option value="">Any status</option>
            {CONTACT_STATUSES.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="contacts-topic">Subscribed to</Label>
          <NativeSelect id="contacts-topic" name="topic" defaultValue={topicId ?? ""} className="w-48">
            <option value="">Any topic</option>
            {topics.map((topic) => (
              <option key={topic.id} value={topic.id}>
                {topic.name}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="contacts-list">On list</Label>
          <NativeSelect id="contacts-list" name="list" defaultValue={listId ?? ""} className="w-48">
            <option value="">Any list</option>
            {lists.map((list) => (
              <option key={list.id} value={list.id}>
                {list.name}
              </option>
            ))}
          </NativeSelect>
        </div>
        <Button type="submit" variant="secondary">
          <Search />
          Apply
        </Button>
        {filtered && (
          <Button asChild variant="ghost">
            <Link href={`/w/${workspaceId}/contacts`}>Clear</Link>
          </Button>
        )}
      </form>
      {page.length === 0 && !after ? (
        filtered ? (
          <EmptyState icon={<Search />} title="No contact matches">
            Try another search or fewer filters.
          </EmptyState>
        ) : (
          <EmptyState icon={<Contact />} title="No contacts yet" action={add}>
            Contacts arrive through your signup form (<code>POST /v1/subscribe</code>), the API (<code>POST /v1/contacts</code>) or an import. You can also add one here.
          </EmptyState>
        )
      ) : (
        <>
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Email</TableHead>
                <TableHead>Name</TableHead>
                <TableHead>Status</TableHead>
                <TableHead>Added</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {page.map((contact) => (
                <TableRow key={contact.id}>
                  <TableCell>
                    <Link className="font-medium text-primary hover:underline" href={`/w/${workspaceId}/contacts/${contact.id}`}>
                      {contact.email}
                    </Link>
                  </TableCell>
                  <TableCell>{[contact.firstName, contact.lastName].filter(Boolean).join(" ") || "—"}</TableCell>
                  <TableCell>
                    <ContactStatusBadge status={contact.status} />
                  </TableCell>
                  <TableCell className="text-muted-foreground">
                    <When at={contact.createdAt} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <Pager
            basePath={`/w/${workspaceId}/contacts`}
            params={{ q: search, status, topic: topicId, list: listId }}
            nextAfter={(rows?.length ?? 0) > PAGE_SIZE ? page.at(-1)!.id : null}
            onFirstPage={!after}
          />
        </>
      )}
    </>
  );
}

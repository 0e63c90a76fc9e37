import { Users } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";

import { RemoveFromListButton } from "@/components/contacts/contact-edits";
import { DeleteListButton, EditListDialog } from "@/components/lists/list-dialogs";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Pager } from "@/components/ui/pager";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { findOrNull } from "@/lib/dashboard/find-or-null";
import { getWorkspaceSession } from "@/lib/dashboard/workspace-session";
import { getListOrThrow } from "@/lib/lists/get-list-or-throw";
import { listListMembers } from "@/lib/lists/list-list-members";

import { removeFromListAction } from "../../contacts/[contactId]/actions";
import { deleteListAction, updateListAction } from "../actions";

export const metadata: Metadata = { title: "List" };

const PAGE_SIZE = 50;

export default async function ListPage({
  params,
  searchParams,
}: {
  params: Promise<{ workspaceId: string; listId: string }>;
  searchParams: Promise<{ after?: string }>;
}) {
  const { workspaceId, listId } = await params;
  const { after } = await searchParams;
  const { ctx, actor } = await getWorkspaceSession(workspaceId);
  const list = await findOrNull(getListOrThrow(ctx, actor, listId));
  if (!list) notFound();
  const rows = await listListMembers(ctx, actor, listId, {
    limit: PAGE_SIZE,
    afterContactId: typeof after === "string" ? after : null,
  });
  const members = rows.slice(0, PAGE_SIZE);
  return (
    <>
      <PageHeader
        crumbs={[
          { label: "Overview", href: `/w/${workspaceId}` },
          { label: "Lists", href: `/w/${workspaceId}/lists` },
          { label: list.name },
        ]}
        title={list.name}
        description={
          list.description || "Members of this list. Removing someone from a list does not unsubscribe them."
        }
        actions={
          <>
            <EditListDialog workspaceId={workspaceId} list={list} action={updateListAction} />
            <DeleteListButton workspaceId={workspaceId} list={list} action={deleteListAction} />
          </>
        }
      />
      {members.length === 0 && !after ? (
        <EmptyState icon={<Users />} title="No members yet">
          Add contacts to this list from a contact&apos;s page, with the API (
          <code>POST /v1/lists/{list.id}/members</code>) or with an import.
        </EmptyState>
      ) : (
        <>
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Email</TableHead>
                <TableHead>Name</TableHead>
                <TableHead className="w-10">
                  <span className="sr-only">Remove</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {members.map((member) => (
                <TableRow key={member.contactId}>
                  <TableCell>
                    <Link
                      className="text-primary hover:underline"
                      href={`/w/${workspaceId}/contacts/${member.contactId}`}
                    >
                      {member.email}
                    </Link>
                  </TableCell>
                  <TableCell>{[member.firstName, member.lastName].filter(Boolean).join(" ") || "—"}</TableCell>
                  <TableCell className="text-right">
                    <RemoveFromListButton
                      workspaceId={workspaceId}
                      contactId={member.contactId}
                      email={member.email}
                      list={list}
                      action={removeFromListAction}
                    />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <Pager
            basePath={`/w/${workspaceId}/lists/${listId}`}
            nextAfter={rows.length > PAGE_SIZE ? members.at(-1)!.contactId : null}
            onFirstPage={!after}
          />
        </>
      )}
    </>
  );
}

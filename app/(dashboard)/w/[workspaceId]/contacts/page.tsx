import { FileUp } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { Suspense } from "react";

import { AddContactDialog } from "@/components/contacts/add-contact-dialog";
import { ContactsTable } from "@/components/contacts/contacts-table";
import { ContactsTotalText } from "@/components/contacts/contacts-total";
import { Await } from "@/components/ui/await";
import { Button } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/page-header";
import { bulkActionRunning } from "@/lib/contacts/bulk-action-view";
import { bulkActionView, listRecentBulkActions } from "@/lib/contacts/contact-bulk-actions";
import { contactCountQuery, readContactListQuery } from "@/lib/contacts/contact-list-query";
import { listAttributeTypes } from "@/lib/contacts/list-attribute-definitions";
import { listFilterOptions } from "@/lib/dashboard/list-filter-options";
import { readContactCount, readContactPage } from "@/lib/dashboard/read-contact-page";
import { getWorkspaceSession } from "@/lib/dashboard/workspace-session";

import { addContactAction, startBulkActionAction } from "./actions";

export const metadata: Metadata = { title: "Contacts" };

export default async function ContactsPage({
  params,
  searchParams,
}: {
  params: Promise<{ workspaceId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { workspaceId } = await params;
  const query = readContactListQuery(await searchParams);
  const { ctx, actor } = await getWorkspaceSession(workspaceId);
  // Not awaited: the rows render first and the total streams in when counted (count-contacts.ts).
  const total = readContactCount(ctx, actor, contactCountQuery(query));
  const [{ topics, lists }, page, attributes, recent] = await Promise.all([
    listFilterOptions(ctx, actor),
    readContactPage(ctx, actor, query),
    listAttributeTypes(ctx, actor),
    listRecentBulkActions(ctx, actor),
  ]);
  const running = recent.map(bulkActionView).filter((run) => bulkActionRunning(run.status));
  const add = (
    <div className="flex flex-wrap gap-2">
      <Button asChild variant="outline">
        <Link href={`/w/${workspaceId}/contacts/imports`}>
          <FileUp />
          Import a file
        </Link>
      </Button>
      <AddContactDialog workspaceId={workspaceId} topics={topics} attributes={attributes} action={addContactAction} />
    </div>
  );
  return (
    <>
      <PageHeader
        crumbs={[{ label: "Overview", href: `/w/${workspaceId}` }, { label: "Contacts" }]}
        title="Contacts"
        description="Everyone in this workspace, once per address, with their consent."
        actions={add}
      />
      <ContactsTable
        workspaceId={workspaceId}
        topics={topics}
        lists={lists}
        initialQuery={query}
        initialPage={page}
        initialTotal={
          <Suspense fallback={<ContactsTotalText count={undefined} />}>
            <Await promise={total}>{(count) => <ContactsTotalText count={count} />}</Await>
          </Suspense>
        }
        attributes={attributes}
        addContact={add}
        bulk={{ action: startBulkActionAction, running }}
      />
    </>
  );
}

import { ListChecks } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";

import { NeedsBrand } from "@/components/dashboard/needs-brand";
import { CreateListDialog, DeleteListButton, EditListDialog } from "@/components/lists/list-dialogs";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { listBrands } from "@/lib/brands/list-brands";
import { getWorkspaceSession } from "@/lib/dashboard/workspace-session";
import { listLists } from "@/lib/lists/list-lists";

import { createListAction, deleteListAction, updateListAction } from "./actions";

export const metadata: Metadata = { title: "Lists" };

// Lists are the sender's own groupings, tens at most: one page shows them all.
const LISTS_SHOWN = 500;

export default async function ListsPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  const { ctx, actor } = await getWorkspaceSession(workspaceId);
  const [brands, lists] = await Promise.all([
    listBrands(ctx, actor),
    listLists(ctx, actor, { limit: LISTS_SHOWN, afterId: null }),
  ]);
  const brandName = new Map(brands.map((brand) => [brand.id, brand.name]));
  const create =
    brands.length > 0 ? <CreateListDialog workspaceId={workspaceId} brands={brands} action={createListAction} /> : null;
  return (
    <>
      <PageHeader
        crumbs={[{ label: "Overview", href: `/w/${workspaceId}` }, { label: "Lists" }]}
        title="Lists"
        description="Your own groupings of contacts. Lists narrow who a campaign reaches; consent stays on topics."
        actions={create}
      />
      {brands.length === 0 ? (
        <NeedsBrand workspaceId={workspaceId} what="Lists" />
      ) : lists.length === 0 ? (
        <EmptyState icon={<ListChecks />} title="Create your first list">
          Group contacts the way you think of them (customers, trial users, event guests), then send a topic&apos;s
          campaign to one group only.
        </EmptyState>
      ) : (
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Name</TableHead>
              <TableHead>Brand</TableHead>
              <TableHead className="text-right">Members</TableHead>
              <TableHead>Created</TableHead>
              <TableHead>
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {lists.slice(0, LISTS_SHOWN).map((list) => (
              <TableRow key={list.id}>
                <TableCell>
                  <Link
                    className="font-medium text-primary hover:underline"
                    href={`/w/${workspaceId}/lists/${list.id}`}
                  >
                    {list.name}
                  </Link>
                  {list.description && (
                    <div className="max-w-xs truncate text-xs text-muted-foreground">{list.description}</div>
                  )}
                </TableCell>
                <TableCell>{brandName.get(list.brandId) ?? "—"}</TableCell>
                <TableCell className="text-right tabular-nums">{list.memberCount.toLocaleString("en")}</TableCell>
                <TableCell className="text-muted-foreground">{list.createdAt.toISOString().slice(0, 10)}</TableCell>
                <TableCell className="text-right">
                  <span className="inline-flex gap-2">
                    <EditListDialog workspaceId={workspaceId} list={list} action={updateListAction} />
                    <DeleteListButton workspaceId={workspaceId} list={list} action={deleteListAction} />
                  </span>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </>
  );
}

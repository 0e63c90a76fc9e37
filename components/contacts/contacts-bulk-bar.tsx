"use client";

import { BellOff, Download, ListMinus, ListPlus, Trash2, X } from "lucide-react";

import { Button } from "@/components/ui/button";
import type { BulkActionKind } from "@/lib/contacts/bulk-action-schemas";
import { dashboardFiles } from "@/lib/dashboard/dashboard-reads";

import { BulkActionDialog, type BulkTarget, type StartBulkAction } from "./bulk-action-dialog";
import type { FilterOption } from "./contacts-toolbar";

/**
 * What can be done with the contacts ticked in the table, or with every contact the filters match:
 * shown above the table while anything is ticked.
 */
export function ContactsBulkBar({
  workspaceId,
  picked,
  wholeFilter,
  canTakeWholeFilter,
  takeWholeFilter,
  clear,
  target,
  lists,
  topics,
  action,
  onStarted,
}: {
  workspaceId: string;
  picked: number;
  wholeFilter: boolean;
  /** Every row of the page is ticked and there are more: offer the whole filter. */
  canTakeWholeFilter: boolean;
  takeWholeFilter: () => void;
  clear: () => void;
  target: BulkTarget;
  lists: FilterOption[];
  topics: FilterOption[];
  action: StartBulkAction;
  onStarted: (bulkActionId: string, kind: BulkActionKind) => void;
}) {
  const whom = wholeFilter
    ? "every contact these filters match"
    : `${picked.toLocaleString("en")} ${picked === 1 ? "contact" : "contacts"}`;
  const dialog = (kind: BulkActionKind, label: string, icon: React.ReactNode, destructive = false) => (
    <BulkActionDialog
      workspaceId={workspaceId}
      kind={kind}
      target={target}
      whom={whom}
      lists={lists}
      topics={topics}
      action={action}
      onStarted={(id) => onStarted(id, kind)}
      trigger={
        <Button variant="outline" size="sm" className={destructive ? "text-destructive" : undefined}>
          {icon}
          {label}
        </Button>
      }
    />
  );
  return (
    <div
      role="region"
      aria-label="Selected contacts"
      className="mb-3 flex flex-wrap items-center gap-2 rounded-md border bg-muted/40 p-2"
    >
      <span className="px-1 text-sm font-medium">
        {wholeFilter ? "All contacts matching these filters" : `${picked.toLocaleString("en")} selected`}
      </span>
      {canTakeWholeFilter && !wholeFilter && (
        <Button variant="link" size="sm" onClick={takeWholeFilter}>
          Select all matching these filters
        </Button>
      )}
      <div className="flex flex-wrap gap-2 sm:ml-auto">
        {lists.length > 0 && dialog("add_to_list", "Add to list", <ListPlus />)}
        {lists.length > 0 && dialog("remove_from_list", "Take off list", <ListMinus />)}
        {dialog("unsubscribe", "Unsubscribe", <BellOff />, true)}
        {dialog("erase", "Erase", <Trash2 />, true)}
        <Button asChild variant="outline" size="sm">
          <a href={exportHref(workspaceId, target)} download>
            <Download />
            Export
          </a>
        </Button>
        <Button variant="ghost" size="sm" onClick={clear} aria-label="Clear the selection">
          <X />
        </Button>
      </div>
    </div>
  );
}

/** The CSV of the ticked contacts, or of the whole filter: a download, so no workflow is needed. */
function exportHref(workspaceId: string, target: BulkTarget): string {
  return "contactIds" in target
    ? dashboardFiles.contactsExport(workspaceId, {}, target.contactIds)
    : dashboardFiles.contactsExport(workspaceId, target.filters);
}

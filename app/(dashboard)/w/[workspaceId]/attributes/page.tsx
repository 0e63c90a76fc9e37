import { Tags } from "lucide-react";
import type { Metadata } from "next";

import { DefineAttributeDialog } from "@/components/attributes/define-attribute-dialog";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { listAttributeDefinitions } from "@/lib/contacts/list-attribute-definitions";
import { getWorkspaceSession } from "@/lib/dashboard/workspace-session";

import { defineAttributeAction } from "./actions";

export const metadata: Metadata = { title: "Custom attributes" };

const TYPE_LABELS = { string: "Text", number: "Number", boolean: "Yes / no", date: "Date" } as const;

export default async function AttributesPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  const { ctx, actor } = await getWorkspaceSession(workspaceId);
  const attributes = await listAttributeDefinitions(ctx, actor);
  const define = <DefineAttributeDialog workspaceId={workspaceId} action={defineAttributeAction} />;
  return (
    <>
      <PageHeader
        crumbs={[{ label: "Overview", href: `/w/${workspaceId}` }, { label: "Custom attributes" }]}
        title="Custom attributes"
        description="Fields of your own on every contact. A campaign using one skips recipients without a value, and its report says who."
        actions={define}
      />
      {attributes.length === 0 ? (
        <EmptyState icon={<Tags />} title="No custom attributes yet">
          Define one (a plan, a city, a renewal date) before the API or your signup form sends it: undefined attributes
          are refused.
        </EmptyState>
      ) : (
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Key</TableHead>
              <TableHead>Type</TableHead>
              <TableHead>Merge tag</TableHead>
              <TableHead>Used by</TableHead>
              <TableHead>Defined</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {attributes.map((attribute) => (
              <TableRow key={attribute.key}>
                <TableCell className="font-medium">{attribute.key}</TableCell>
                <TableCell>
                  <Badge variant="outline">{TYPE_LABELS[attribute.type]}</Badge>
                </TableCell>
                <TableCell>
                  <code className="rounded bg-muted px-1.5 py-0.5 text-xs">{`{{contact.${attribute.key}}}`}</code>
                </TableCell>
                <TableCell className="max-w-72 truncate">
                  {attribute.usedBy.length === 0 ? (
                    <span className="text-muted-foreground">No campaign</span>
                  ) : (
                    attribute.usedBy.map((campaign) => campaign.name).join(", ")
                  )}
                </TableCell>
                <TableCell className="text-muted-foreground">
                  {new Date(attribute.createdAt).toISOString().slice(0, 10)}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </>
  );
}

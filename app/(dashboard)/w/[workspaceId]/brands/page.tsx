import { Building2 } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";

import { CreateBrandDialog } from "@/components/brands/create-brand-dialog";
import { ReviewBadge } from "@/components/brands/review-badge";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { listBrands } from "@/lib/brands/list-brands";
import { getWorkspaceSession } from "@/lib/dashboard/workspace-session";

import { createBrandAction } from "./actions";

export const metadata: Metadata = { title: "Brands" };

export default async function BrandsPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  const { ctx, actor } = await getWorkspaceSession(workspaceId);
  const brands = await listBrands(ctx, actor);
  const create = <CreateBrandDialog workspaceId={workspaceId} action={createBrandAction} />;
  return (
    <>
      <PageHeader
        crumbs={[{ label: "Overview", href: `/w/${workspaceId}` }, { label: "Brands" }]}
        title="Brands"
        description="Who your mail is from. Each brand is reviewed by the service before it mails beyond your own addresses."
        actions={create}
      />
      {brands.length === 0 ? (
        <EmptyState icon={<Building2 />} title="Add your first brand">
          A brand holds the name, legal name, postal address and sender address your campaigns and consent pages show.
          Topics and lists belong to a brand.
        </EmptyState>
      ) : (
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Name</TableHead>
              <TableHead>Legal name</TableHead>
              <TableHead>Sender address</TableHead>
              <TableHead>Review</TableHead>
              <TableHead>Created</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {brands.map((brand) => (
              <TableRow key={brand.id}>
                <TableCell className="font-medium">
                  <Link className="text-primary hover:underline" href={`/w/${workspaceId}/brands/${brand.id}`}>
                    {brand.name}
                  </Link>
                </TableCell>
                <TableCell>{brand.legalName}</TableCell>
                <TableCell>{brand.senderEmail}</TableCell>
                <TableCell>
                  <ReviewBadge
                    status={brand.reviewStatus}
                    held={brand.sendingHeldAt !== null}
                    selfReviewed={brand.selfReviewed}
                  />
                </TableCell>
                <TableCell className="text-muted-foreground">{brand.createdAt.toISOString().slice(0, 10)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </>
  );
}

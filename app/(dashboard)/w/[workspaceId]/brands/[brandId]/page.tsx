import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { EditBrandForm } from "@/components/brands/edit-brand-form";
import { ReviewBadge } from "@/components/brands/review-badge";
import { PageHeader } from "@/components/ui/page-header";
import { getBrandOrThrow } from "@/lib/brands/get-brand-or-throw";
import { getWorkspaceSession } from "@/lib/dashboard/workspace-session";
import { findOrNull } from "@/lib/dashboard/find-or-null";
import { updateBrandAction } from "../actions";

export const metadata: Metadata = { title: "Brand" };

export default async function BrandPage({ params }: { params: Promise<{ workspaceId: string; brandId: string }> }) {
  const { workspaceId, brandId } = await params;
  const { ctx, actor } = await getWorkspaceSession(workspaceId);
  const brand = await findOrNull(getBrandOrThrow(ctx, actor, brandId));
  if (!brand) notFound();
  return (
    <>
      <PageHeader
        crumbs={[{ label: "Overview", href: `/w/${workspaceId}` }, { label: "Brands", href: `/w/${workspaceId}/brands` }, { label: brand.name }]}
        title={brand.name}
        description={<ReviewBadge status={brand.reviewStatus} held={brand.sendingHeldAt !== null} selfReviewed={brand.selfReviewed} />}
      />
      <EditBrandForm
        workspaceId={workspaceId}
        action={updateBrandAction}
        brand={{
          id: brand.id,
          name: brand.name,
          legalName: brand.legalName,
          postalAddress: brand.postalAddress,
          senderEmail: brand.senderEmail,
          websiteUrl: brand.websiteUrl,
          logoUrl: brand.logoUrl,
          primaryColor: brand.primaryColor,
        }}
      />
    </>
  );
}

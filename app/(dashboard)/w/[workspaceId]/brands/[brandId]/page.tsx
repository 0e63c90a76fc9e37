import type { Metadata } from "next";
import { notFound } from "next/navigation";

import { BrandSenderCard } from "@/components/brands/brand-sender-card";
import { EditBrandForm } from "@/components/brands/edit-brand-form";
import { ReviewBadge } from "@/components/brands/review-badge";
import { PageHeader } from "@/components/ui/page-header";
import { isFreeMailDomain } from "@/lib/brands/free-mail";
import { getBrandOrThrow } from "@/lib/brands/get-brand-or-throw";
import { findOrNull } from "@/lib/dashboard/find-or-null";
import { getWorkspaceSession } from "@/lib/dashboard/workspace-session";
import { senderDomainOf } from "@/lib/domains/sender-domain";
import { getSendingDomainOrThrow } from "@/lib/domains/sending-domains";

import { updateBrandAction } from "../actions";

export const metadata: Metadata = { title: "Brand" };

export default async function BrandPage({ params }: { params: Promise<{ workspaceId: string; brandId: string }> }) {
  const { workspaceId, brandId } = await params;
  const { ctx, actor } = await getWorkspaceSession(workspaceId);
  const brand = await findOrNull(getBrandOrThrow(ctx, actor, brandId));
  if (!brand) notFound();
  const domain = brand.domainId ? await findOrNull(getSendingDomainOrThrow(ctx, actor, brand.domainId)) : null;
  return (
    <>
      <PageHeader
        crumbs={[
          { label: "Overview", href: `/w/${workspaceId}` },
          { label: "Brands", href: `/w/${workspaceId}/brands` },
          { label: brand.name },
        ]}
        title={brand.name}
        description={
          <ReviewBadge
            status={brand.reviewStatus}
            held={brand.sendingHeldAt !== null}
            selfReviewed={brand.selfReviewed}
          />
        }
      />
      <div className="mb-6 max-w-2xl">
        <BrandSenderCard
          workspaceId={workspaceId}
          senderEmail={brand.senderEmail}
          freeMail={isFreeMailDomain(senderDomainOf(brand.senderEmail))}
          domain={domain && { id: domain.id, hostname: domain.hostname, state: domain.state }}
        />
      </div>
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

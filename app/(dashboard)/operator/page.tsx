import { ShieldCheck } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";

import { ReviewButtons } from "@/components/operator/review-buttons";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { When } from "@/components/ui/when";
import { defaultCtx } from "@/lib/context";
import { listSelfReviews } from "@/lib/operator/list-self-reviews";
import { requireOperator } from "@/lib/operator/operator-session";
import { listReviewQueue } from "@/lib/operator/review-queue";

import { reviewBrandAction, reviewWorkspaceAction } from "./actions";

export const metadata: Metadata = { title: "Reviews" };

/** The service's operators review workspaces and brands here: what the sender gave, then approve or reject with a reason. */
export default async function OperatorReviewsPage() {
  const operator = await requireOperator();
  const [queue, selfReviews] = await Promise.all([listReviewQueue(defaultCtx()), listSelfReviews(defaultCtx())]);
  return (
    <main className="mx-auto grid max-w-5xl grid-cols-1 gap-6 px-4 py-8 sm:px-6">
      <PageHeader
        title="Reviews"
        description={`Signed in as ${operator.email}, an operator of the service. Each decision is mailed to the workspace's owners.`}
        actions={
          <div className="flex flex-wrap gap-2">
            <Button asChild variant="outline">
              <Link href="/operator/billing">Billing</Link>
            </Button>
            <Button asChild variant="outline">
              <Link href="/operator/workflows">Workflow runs</Link>
            </Button>
            <Button asChild variant="outline">
              <Link href="/">Back to the dashboard</Link>
            </Button>
          </div>
        }
      />
      <section className="grid gap-4" aria-labelledby="brands-heading">
        <h2 id="brands-heading" className="text-lg font-semibold">
          Brands awaiting review ({queue.brands.length})
        </h2>
        {queue.brands.length === 0 && <EmptyState icon={<ShieldCheck />} title="No brand is waiting" />}
        {queue.brands.map((brand) => (
          <Card key={brand.id} data-testid={`review-brand-${brand.id}`}>
            <CardHeader>
              <CardTitle>{brand.name}</CardTitle>
              <CardDescription>
                of {brand.workspaceName} · submitted <When at={brand.createdAt} />
              </CardDescription>
            </CardHeader>
            <CardContent className="grid gap-4 md:grid-cols-2">
              <dl className="grid content-start grid-cols-[9rem_1fr] gap-x-3 gap-y-1 text-sm wrap-anywhere">
                <dt className="text-muted-foreground">Legal name</dt>
                <dd>{brand.legalName}</dd>
                <dt className="text-muted-foreground">Postal address</dt>
                <dd>{brand.postalAddress}</dd>
                <dt className="text-muted-foreground">Website</dt>
                <dd>{brand.websiteUrl}</dd>
                <dt className="text-muted-foreground">Sender</dt>
                <dd>{brand.senderEmail}</dd>
                <dt className="text-muted-foreground">Sending domain</dt>
                <dd>
                  {brand.domainState ? (
                    <Badge variant={brand.domainState === "ready" ? "success" : "secondary"}>{brand.domainState}</Badge>
                  ) : (
                    "none yet"
                  )}
                </dd>
              </dl>
              <ReviewButtons
                id={brand.id}
                label={`Brand ${brand.name}`}
                action={reviewBrandAction}
                seenUpdatedAt={brand.updatedAt.toISOString()}
              />
            </CardContent>
          </Card>
        ))}
      </section>
      <section className="grid gap-4" aria-labelledby="workspaces-heading">
        <h2 id="workspaces-heading" className="text-lg font-semibold">
          Workspaces awaiting review ({queue.workspaces.length})
        </h2>
        {queue.workspaces.length === 0 && <EmptyState icon={<ShieldCheck />} title="No workspace is waiting" />}
        {queue.workspaces.map((workspace) => (
          <Card key={workspace.id} data-testid={`review-workspace-${workspace.id}`}>
            <CardHeader>
              <CardTitle>{workspace.name}</CardTitle>
              <CardDescription>
                created <When at={workspace.createdAt} /> · owners {workspace.owners.join(", ")}
                {workspace.rejectedAt && (
                  <>
                    {" "}
                    · rejected before{workspace.selfReviewed && " (a self-review)"}: “{workspace.reviewNote}”
                  </>
                )}
              </CardDescription>
            </CardHeader>
            <CardContent className="grid gap-4 md:grid-cols-2">
              <dl className="grid content-start grid-cols-[9rem_1fr] gap-x-3 gap-y-1 text-sm wrap-anywhere">
                <dt className="text-muted-foreground">Brands</dt>
                <dd>
                  {workspace.brands.map((brand) => `${brand.name} (${brand.reviewStatus})`).join(", ") || "none yet"}
                </dd>
                <dt className="text-muted-foreground">Domains</dt>
                <dd>
                  {workspace.domains.map((domain) => `${domain.hostname} (${domain.state})`).join(", ") || "none yet"}
                </dd>
              </dl>
              <ReviewButtons id={workspace.id} label={`Workspace ${workspace.name}`} action={reviewWorkspaceAction} />
            </CardContent>
          </Card>
        ))}
      </section>
      {selfReviews.length > 0 && (
        <section className="grid gap-2" aria-labelledby="self-reviews-heading">
          <h2 id="self-reviews-heading" className="text-lg font-semibold">
            Self-reviews ({selfReviews.length})
          </h2>
          <p className="text-sm text-muted-foreground">
            Decided by the service&apos;s only operator on a workspace they belong to. Another operator can review them
            again.
          </p>
          <ul className="grid gap-1 text-sm" data-testid="self-reviews">
            {selfReviews.map((review) => (
              <li key={review.id}>
                {review.kind === "workspace"
                  ? `Workspace ${review.name}`
                  : `Brand ${review.name} of ${review.workspaceName}`}
                : {review.decision} by {review.reviewer}
              </li>
            ))}
          </ul>
        </section>
      )}
    </main>
  );
}

import { Globe } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";

import { NeedsBrand } from "@/components/dashboard/needs-brand";
import { AddDomainDialog } from "@/components/domains/domain-controls";
import { DomainStateBadge } from "@/components/domains/domain-state-badge";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { When } from "@/components/ui/when";
import { listBrands } from "@/lib/brands/list-brands";
import { getWorkspaceSession } from "@/lib/dashboard/workspace-session";
import { listSendingDomains } from "@/lib/domains/sending-domains";

import { addDomainAction } from "./actions";

export const metadata: Metadata = { title: "Domains" };

export default async function DomainsPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  const { ctx, actor } = await getWorkspaceSession(workspaceId);
  const [domains, brands] = await Promise.all([listSendingDomains(ctx, actor), listBrands(ctx, actor)]);
  const add =
    brands.length > 0 ? (
      <AddDomainDialog
        workspaceId={workspaceId}
        brands={brands.map(({ id, name, senderEmail }) => ({ id, name, senderEmail }))}
        action={addDomainAction}
      />
    ) : undefined;
  return (
    <>
      <PageHeader
        crumbs={[{ label: "Overview", href: `/w/${workspaceId}` }, { label: "Domains" }]}
        title="Sending domains"
        description="The domain your mail comes from, proven yours by DNS records: mailbox providers trust signed mail from a domain with SPF, DKIM and DMARC."
        actions={add}
      />
      {brands.length === 0 ? (
        <NeedsBrand workspaceId={workspaceId} what="Domains" />
      ) : domains.length === 0 ? (
        <EmptyState icon={<Globe />} title="Add your sending domain" action={add}>
          Until a domain is verified and ready, your workspace mails only its verified addresses. Add the domain of your
          brand&apos;s sender address (news@example.com needs example.com): adding it takes a minute; publishing its
          records at your DNS host, a few more.
        </EmptyState>
      ) : (
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Domain</TableHead>
              <TableHead>State</TableHead>
              <TableHead>Brands</TableHead>
              <TableHead>Last checked</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {domains.map((domain) => (
              <TableRow key={domain.id}>
                <TableCell>
                  <Link
                    className="font-medium text-primary hover:underline"
                    href={`/w/${workspaceId}/domains/${domain.id}`}
                  >
                    {domain.hostname}
                  </Link>
                </TableCell>
                <TableCell>
                  <DomainStateBadge state={domain.state} />
                </TableCell>
                <TableCell className="whitespace-normal">
                  {domain.brands.length === 0
                    ? "—"
                    : domain.brands.map((brand) => (
                        <div key={brand.id} className="flex flex-wrap items-center gap-x-2">
                          <Link className="hover:underline" href={`/w/${workspaceId}/brands/${brand.id}`}>
                            {brand.name}
                          </Link>
                          {!brand.senderAtDomain && (
                            <Badge
                              variant="warning"
                              title={`${brand.senderEmail} is not at ${domain.hostname}: its mail is not signed with this domain.`}
                            >
                              Sender not at this domain
                            </Badge>
                          )}
                        </div>
                      ))}
                </TableCell>
                <TableCell>
                  <When at={domain.lastCheckedAt} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </>
  );
}

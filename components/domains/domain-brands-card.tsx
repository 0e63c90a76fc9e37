import Link from "next/link";

import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import type { DomainBrand } from "@/lib/domains/sending-domains";

/** The brands that send from a domain, and whether each one's sender address is at it (else its mail is not signed with it). */
export function DomainBrandsCard({
  workspaceId,
  hostname,
  brands,
}: {
  workspaceId: string;
  hostname: string;
  brands: DomainBrand[];
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Brands sending from {hostname}</CardTitle>
        <CardDescription>
          A brand&apos;s mail is signed with this domain when its sender address is at it: news@{hostname}, for example.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {brands.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            No brand uses this domain. Add it again from Domains, choosing the brand, to point a brand at it.
          </p>
        ) : (
          <ul className="grid gap-3">
            {brands.map((brand) => (
              <li key={brand.id} className="grid gap-1 text-sm" data-testid="domain-brand">
                <span className="flex flex-wrap items-center gap-2">
                  <Link
                    className="font-medium text-primary hover:underline"
                    href={`/w/${workspaceId}/brands/${brand.id}`}
                  >
                    {brand.name}
                  </Link>
                  <span className="break-all text-muted-foreground">{brand.senderEmail}</span>
                  {brand.senderAtDomain ? (
                    <Badge variant="success">Sender at this domain</Badge>
                  ) : (
                    <Badge variant="warning">Sender not at this domain</Badge>
                  )}
                </span>
                {!brand.senderAtDomain && (
                  <span className="text-muted-foreground">
                    {`Its mail is not signed with ${hostname} until its sender address is at ${hostname}. Change the sender on the brand's page, or add the domain of its current address (${brand.senderEmail.slice(brand.senderEmail.lastIndexOf("@") + 1)}).`}
                  </span>
                )}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

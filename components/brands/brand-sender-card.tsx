import { Globe, TriangleAlert } from "lucide-react";
import Link from "next/link";

import { DomainStateBadge } from "@/components/domains/domain-state-badge";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { senderDomainOf, senderIsAtDomain } from "@/lib/domains/sender-domain";

interface Props {
  workspaceId: string;
  senderEmail: string;
  /** The sender's domain is a free-mail provider's (a brand made before such senders were refused). */
  freeMail: boolean;
  domain: { id: string; hostname: string; state: string } | null;
}

/** Which domain the brand's sender needs, the brand's domain and its state, and what to do when they differ. */
export function BrandSenderCard({ workspaceId, senderEmail, freeMail, domain }: Props) {
  const needed = senderDomainOf(senderEmail);
  const matches = domain !== null && senderIsAtDomain(senderEmail, domain.hostname);
  return (
    <Card data-testid="brand-sending-domain">
      <CardHeader>
        <CardTitle>Sending domain</CardTitle>
        <CardDescription>
          Mail from {senderEmail} is signed with <strong className="font-medium text-foreground">{needed}</strong>, the
          domain after the @: that is the domain to verify.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3 text-sm">
        {freeMail ? (
          <Alert variant="destructive">
            <TriangleAlert />
            <AlertTitle>{needed} is a free mail provider</AlertTitle>
            <AlertDescription>
              Mail sent for you from a {needed} address fails its DMARC check and is rejected or put in spam. Change the
              sender address below to one at your own domain.
            </AlertDescription>
          </Alert>
        ) : domain === null ? (
          <div className="flex flex-wrap items-center justify-between gap-3">
            <span className="text-muted-foreground">
              No sending domain yet: until {needed} is verified, this brand mails only your verified addresses.
            </span>
            <Button asChild size="sm">
              <Link href={`/w/${workspaceId}/domains`}>
                <Globe />
                Add {needed}
              </Link>
            </Button>
          </div>
        ) : (
          <>
            <span className="flex flex-wrap items-center gap-2">
              <Link
                className="font-medium text-primary hover:underline"
                href={`/w/${workspaceId}/domains/${domain.id}`}
              >
                {domain.hostname}
              </Link>
              <DomainStateBadge state={domain.state} />
            </span>
            {!matches && (
              <Alert variant="warning" data-testid="brand-sender-mismatch">
                <TriangleAlert />
                <AlertTitle>{`${senderEmail} is not at ${domain.hostname}`}</AlertTitle>
                <AlertDescription>
                  {`This brand's mail is not signed with ${domain.hostname}. Change the sender address to one at ${domain.hostname} (e.g. news@${domain.hostname}), or add ${needed} under Domains.`}
                </AlertDescription>
              </Alert>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}

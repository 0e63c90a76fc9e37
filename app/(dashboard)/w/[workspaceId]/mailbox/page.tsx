import { FlaskConical, Inbox } from "lucide-react";
import type { Metadata } from "next";
import { notFound } from "next/navigation";

import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { When } from "@/components/ui/when";
import { getWorkspaceSession } from "@/lib/dashboard/workspace-session";
import { getMailTransport } from "@/lib/mail/get-mail-transport";
import { listMailbox, type MailboxMessage } from "@/lib/mail/list-mailbox";
import { mailboxEnabled, unsetMailTransportWarning } from "@/lib/mail/mailbox-enabled";
import { withoutOpenPixel } from "@/lib/tracking/tracking-links";

import { simulateOutcomeAction } from "./actions";

export const metadata: Metadata = { title: "Test mailbox" };

// Why a member sees the service's own mail, by kind (who sees which: lib/mail/list-mailbox.ts).
const SERVICE_MAIL: Record<NonNullable<MailboxMessage["serviceMail"]>, { label: string; note: string }> = {
  invitation: {
    label: "Invitation",
    note: "Shown to the workspace's owners and admins. Pass the link to the person you invited: it sets their password.",
  },
  verify_address: {
    label: "Address confirmation",
    note: "Shown to every member. Follow the link only if the address is yours, or its owner agreed to receive test mail.",
  },
  password_reset: { label: "Password reset", note: "" },
  notice: { label: "Notice", note: "" },
};

/**
 * What the local transport "sent" for this workspace: headers, rendered HTML, clickable links.
 * Those are live confirmation and unsubscribe links, so the page exists only where mailboxEnabled() says.
 */
export default async function MailboxPage({
  params,
  searchParams,
}: {
  params: Promise<{ workspaceId: string }>;
  searchParams: Promise<{ reported?: string; refused?: string }>;
}) {
  if (!mailboxEnabled()) notFound();
  const { workspaceId } = await params;
  const { reported, refused } = await searchParams;
  const { ctx, actor, user } = await getWorkspaceSession(workspaceId);
  const messages = await listMailbox(ctx, actor, { limit: 50 });
  const transport = getMailTransport().name;
  const unsetWarning = unsetMailTransportWarning();
  return (
    <>
      <PageHeader
        crumbs={[{ label: "Overview", href: `/w/${workspaceId}` }, { label: "Test mailbox" }]}
        title="Test mailbox"
      />
      <div className="grid min-w-0 gap-4 [&>*]:min-w-0">
        {transport === "local" ? (
          <Alert variant="warning" role="note">
            <FlaskConical />
            <AlertTitle>Test mailbox: messages are stored here, not delivered.</AlertTitle>
            <AlertDescription>
              Its links are live: confirming or unsubscribing here acts for the recipient. The service&apos;s own mail
              (invitations, address confirmations) is shown only to the members it is meant for.
            </AlertDescription>
          </Alert>
        ) : (
          <p className="text-sm text-muted-foreground">
            Mail goes out through the {transport} transport; only mail sent while the local transport was active is kept
            here.
          </p>
        )}
        {unsetWarning && <p className="text-sm text-muted-foreground">{unsetWarning}.</p>}
        {reported && (
          <p role="status" className="rounded-md border border-emerald-600/30 bg-emerald-600/10 px-3 py-2 text-sm">
            Reported “{reported.replace("-", " ")}” as the provider would.
          </p>
        )}
        {refused === "inactive" && (
          <Alert variant="destructive" role="alert">
            <AlertDescription>
              Nothing was reported: this workspace is read-only because of billing. Open Billing to make it active
              again.
            </AlertDescription>
          </Alert>
        )}
        {messages.length === 0 && (
          <EmptyState icon={<Inbox />} title="No mail yet">
            Mail this workspace sends (confirmations, welcome mail, test sends, campaigns) appears here, with the
            service&apos;s own mail meant for you: invitations you send, links to confirm addresses for test sends,
            notices about reviews.
          </EmptyState>
        )}
        <ol className="grid gap-4">
          {messages.map((message) => (
            <li key={message.id} data-testid="mailbox-message">
              <Card>
                <CardHeader>
                  {message.serviceMail && (
                    <Badge variant="secondary" className="mb-1">
                      From the service · {SERVICE_MAIL[message.serviceMail].label}
                    </Badge>
                  )}
                  <CardTitle>{message.subject}</CardTitle>
                  <CardDescription>
                    To <strong className="break-all text-foreground">{message.to}</strong> from{" "}
                    {message.headers["From"] ?? message.from} · <When at={message.sentAt} />
                  </CardDescription>
                  {message.serviceMail && (
                    <p className="text-sm text-muted-foreground">
                      {message.to === user.email && message.serviceMail !== "verify_address"
                        ? "Mailed to you: nobody else in the workspace sees it here."
                        : SERVICE_MAIL[message.serviceMail].note}
                    </p>
                  )}
                </CardHeader>
                <CardContent className="grid gap-4">
                  {message.links.length > 0 && (
                    <nav aria-label={`Links in "${message.subject}"`}>
                      <ul className="grid gap-1 text-sm break-all">
                        {message.links.map((link) => (
                          <li key={link}>
                            <a className="text-primary underline" href={link}>
                              {link}
                            </a>
                          </li>
                        ))}
                      </ul>
                    </nav>
                  )}
                  {message.html && (
                    // Sandboxed: the message's own markup runs no script and cannot reach the dashboard. No open pixel: showing fifty messages is no one opening them.
                    <iframe
                      className="min-h-56 w-full rounded-md border bg-white"
                      title={`HTML of "${message.subject}"`}
                      sandbox="allow-popups allow-popups-to-escape-sandbox"
                      srcDoc={`<base target="_blank">${withoutOpenPixel(message.html)}`}
                    />
                  )}
                  {/* The service's own mail is no workspace's audience: nothing to report for it. */}
                  {!message.serviceMail && (
                    <form
                      className="flex flex-wrap items-center gap-2"
                      action={simulateOutcomeAction.bind(null, workspaceId, message.id)}
                    >
                      <span className="text-sm text-muted-foreground">Simulate the provider:</span>
                      <Button variant="outline" size="sm" type="submit" name="outcome" value="delivered">
                        Delivered
                      </Button>
                      <Button variant="outline" size="sm" type="submit" name="outcome" value="bounce-permanent">
                        Bounce (permanent)
                      </Button>
                      <Button variant="outline" size="sm" type="submit" name="outcome" value="bounce-transient">
                        Bounce (transient)
                      </Button>
                      <Button variant="outline" size="sm" type="submit" name="outcome" value="complained">
                        Complaint
                      </Button>
                    </form>
                  )}
                  <details className="text-sm">
                    <summary className="cursor-pointer font-medium">Headers</summary>
                    <dl className="mt-2 grid gap-1 text-xs">
                      {Object.entries(message.headers).map(([name, value]) => (
                        <div key={name} className="grid grid-cols-[12rem_1fr] gap-2">
                          <dt className="font-medium">{name}</dt>
                          <dd className="break-all">{value}</dd>
                        </div>
                      ))}
                    </dl>
                  </details>
                  <details className="text-sm">
                    <summary className="cursor-pointer font-medium">Text part</summary>
                    <pre className="mt-2 text-xs whitespace-pre-wrap">{message.text}</pre>
                  </details>
                </CardContent>
              </Card>
            </li>
          ))}
        </ol>
      </div>
    </>
  );
}

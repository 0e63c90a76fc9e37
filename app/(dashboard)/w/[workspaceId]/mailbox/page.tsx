import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { userActor } from "@/lib/actor";
import { requireUser } from "@/lib/auth/current-user";
import { defaultCtx } from "@/lib/context";
import { getMailTransport } from "@/lib/mail/get-mail-transport";
import { listMailbox } from "@/lib/mail/list-mailbox";
import { mailboxEnabled, unsetMailTransportWarning } from "@/lib/mail/mailbox-enabled";
import { requireMembership } from "@/lib/workspaces/require-membership";
import { simulateOutcomeAction } from "./actions";

export const metadata: Metadata = { title: "Test mailbox" };

/**
 * What the local transport "sent" for this workspace: headers, rendered HTML, clickable links.
 * Those are live confirmation and unsubscribe links, so the page exists only where mailboxEnabled() says.
 */
export default async function MailboxPage({ params, searchParams }: { params: Promise<{ workspaceId: string }>; searchParams: Promise<{ reported?: string }> }) {
  if (!mailboxEnabled()) notFound();
  const { workspaceId } = await params;
  const { reported } = await searchParams;
  const user = await requireUser();
  const ctx = defaultCtx();
  await requireMembership(ctx, user.id, workspaceId, notFound);
  const messages = await listMailbox(ctx, userActor(user.id, workspaceId), { limit: 50 });
  const transport = getMailTransport().name;
  const unsetWarning = unsetMailTransportWarning();
  return (
    <>
      <h1>Test mailbox</h1>
      {transport === "local" ? (
        <p role="note">
          <strong>Test mailbox:</strong> messages are stored here, not delivered.
        </p>
      ) : (
        <p className="muted">Mail goes out through the {transport} transport; only mail sent while the local transport was active is kept here.</p>
      )}
      {unsetWarning && <p className="muted">{unsetWarning}.</p>}
      {reported && <p role="status">Reported “{reported.replace("-", " ")}” as the provider would.</p>}
      {messages.length === 0 && <p className="muted">No mail yet. Confirmation and campaign mail for this workspace will appear here.</p>}
      <ol className="mailbox">
        {messages.map((message) => (
          <li key={message.id} className="card message" data-testid="mailbox-message">
            <h2>{message.subject}</h2>
            <p className="muted">
              To <strong>{message.to}</strong> from {message.headers["From"] ?? message.from} · <time dateTime={message.sentAt.toISOString()}>{message.sentAt.toISOString().replace("T", " ").slice(0, 19)} UTC</time>
            </p>
            {message.links.length > 0 && (
              <nav aria-label={`Links in "${message.subject}"`}>
                <ul className="links">
                  {message.links.map((link) => (
                    <li key={link}>
                      <a href={link}>{link}</a>
                    </li>
                  ))}
                </ul>
              </nav>
            )}
            {message.html && (
              // Sandboxed: the message's own markup runs no script and cannot reach the dashboard.
              <iframe className="rendered" title={`HTML of "${message.subject}"`} sandbox="allow-popups allow-popups-to-escape-sandbox" srcDoc={`<base target="_blank">${message.html}`} />
            )}
            <form className="outcomes" action={simulateOutcomeAction.bind(null, workspaceId, message.id)}>
              <span className="muted">Simulate the provider:</span>
              <button className="button secondary" type="submit" name="outcome" value="delivered">Delivered</button>
              <button className="button secondary" type="submit" name="outcome" value="bounce-permanent">Bounce (permanent)</button>
              <button className="button secondary" type="submit" name="outcome" value="bounce-transient">Bounce (transient)</button>
              <button className="button secondary" type="submit" name="outcome" value="complained">Complaint</button>
            </form>
            <details>
              <summary>Headers</summary>
              <dl className="headers">
                {Object.entries(message.headers).map(([name, value]) => (
                  <div key={name}>
                    <dt>{name}</dt>
                    <dd>{value}</dd>
                  </div>
                ))}
              </dl>
            </details>
            <details>
              <summary>Text part</summary>
              <pre>{message.text}</pre>
            </details>
          </li>
        ))}
      </ol>
    </>
  );
}

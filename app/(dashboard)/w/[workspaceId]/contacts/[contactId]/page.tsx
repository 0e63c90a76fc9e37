import { Download } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";

import { ContactAutomations } from "@/components/contacts/contact-automations";
import { AddToListForm, EditContactDialog, RemoveFromListButton } from "@/components/contacts/contact-edits";
import { ContactStatusBadge } from "@/components/contacts/contact-status-badge";
import { EraseContactDialog } from "@/components/contacts/erase-contact-dialog";
import { UnsubscribeDialog } from "@/components/contacts/unsubscribe-dialog";
import { ContactSuppressions } from "@/components/suppressions/contact-suppressions";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { When } from "@/components/ui/when";
import { contactAutomations } from "@/lib/automations/contact-automations";
import { notSentReason } from "@/lib/campaigns/not-sent-reasons";
import { getContactDetailsOrThrow, type ContactSendRow } from "@/lib/contacts/get-contact-details";
import { listAttributeTypes } from "@/lib/contacts/list-attribute-definitions";
import { dashboardFiles } from "@/lib/dashboard/dashboard-reads";
import { findOrNull } from "@/lib/dashboard/find-or-null";
import { getWorkspaceSession } from "@/lib/dashboard/workspace-session";
import { listLists } from "@/lib/lists/list-lists";
import { describeSubscriptionSource } from "@/lib/subscriptions/describe-subscription-source";
import { canOptOut } from "@/lib/subscriptions/subscription-state";
import { suppressionsOfAddress } from "@/lib/suppressions/suppression-evidence";
import { machineLabel } from "@/lib/tracking/machine-engagement";

import { deleteSuppressionAction } from "../../suppressions/actions";
import {
  addToListAction,
  editContactAction,
  eraseContactAction,
  removeFromListAction,
  unsubscribeOnBehalfAction,
} from "./actions";

export const metadata: Metadata = { title: "Contact" };

function outcome(send: ContactSendRow): string {
  if (send.failureReason) return `Not sent: ${notSentReason(send.failureReason).label}`;
  const steps = [
    send.deliveredAt && "delivered",
    send.bouncedAt && "bounced",
    send.complainedAt && "complained",
    send.openedAt && "opened",
    send.clickedAt && "clicked",
    send.unsubscribedAt && "unsubscribed",
  ].filter(Boolean);
  return steps.length > 0 ? steps.join(", ") : send.state;
}

export default async function ContactPage({ params }: { params: Promise<{ workspaceId: string; contactId: string }> }) {
  const { workspaceId, contactId } = await params;
  const { ctx, actor } = await getWorkspaceSession(workspaceId);
  const [details, allLists, definitions, automationPositions] = await Promise.all([
    findOrNull(getContactDetailsOrThrow(ctx, actor, contactId)),
    listLists(ctx, actor, { limit: 500, afterId: null }),
    listAttributeTypes(ctx, actor),
    contactAutomations(ctx, actor, contactId),
  ]);
  if (!details) notFound();
  const suppression = await suppressionsOfAddress(ctx, actor, details.contact.email);
  const { contact } = details;
  const name = [contact.firstName, contact.lastName].filter(Boolean).join(" ");
  // Every field the workspace defines, empty ones too, so the card says what can be filled in.
  const attributes = [
    ...new Set([...definitions.map((definition) => definition.key), ...Object.keys(contact.attributes)]),
  ].map((key) => [key, Object.hasOwn(contact.attributes, key) ? contact.attributes[key] : undefined] as const);
  return (
    <>
      <PageHeader
        crumbs={[
          { label: "Overview", href: `/w/${workspaceId}` },
          { label: "Contacts", href: `/w/${workspaceId}/contacts` },
          { label: contact.email },
        ]}
        title={contact.email}
        actions={
          <>
            <EditContactDialog
              workspaceId={workspaceId}
              contact={contact}
              definitions={definitions}
              action={editContactAction}
            />
            {/* For the person's access request: everything held about them, as one JSON file. */}
            <Button asChild variant="outline" size="sm">
              <a
                href={dashboardFiles.contactData(workspaceId, contact.id)}
                download
                title="Everything held about this contact, as a JSON file, for when they ask what you hold on them"
              >
                <Download />
                Download data
              </a>
            </Button>
          </>
        }
        description={
          <span className="inline-flex flex-wrap items-center gap-2">
            <ContactStatusBadge status={contact.status} />
            {name && <span>{name}</span>}
            <span>
              Added <When at={contact.createdAt} />
            </span>
            {contact.optedOutAt && (
              <span>
                · Opted out of everything <When at={contact.optedOutAt} />
              </span>
            )}
          </span>
        }
      />
      <div className="grid min-w-0 grid-cols-1 gap-6 [&>*]:min-w-0">
        <Card>
          <CardHeader>
            <CardTitle>Subscriptions and consent</CardTitle>
            <CardDescription>
              For every topic: how consent was given, when the confirmation was sent and clicked, and from where.
            </CardDescription>
          </CardHeader>
          <CardContent>
            {details.subscriptions.length === 0 ? (
              <p className="text-sm text-muted-foreground">No subscription yet.</p>
            ) : (
              <Table>
                <TableHeader>
                  <TableRow>
                    <TableHead>Topic</TableHead>
                    <TableHead>State</TableHead>
                    <TableHead>Source</TableHead>
                    <TableHead>Confirmation sent</TableHead>
                    <TableHead>Confirmed</TableHead>
                    <TableHead>From</TableHead>
                    <TableHead>Unsubscribed</TableHead>
                    <TableHead>
                      <span className="sr-only">Actions</span>
                    </TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {details.subscriptions.map((subscription) => (
                    <TableRow key={subscription.topicId}>
                      <TableCell className="font-medium">{subscription.topicName}</TableCell>
                      <TableCell>
                        <Badge
                          variant={
                            subscription.state === "subscribed"
                              ? "success"
                              : subscription.state === "pending"
                                ? "warning"
                                : "secondary"
                          }
                        >
                          {subscription.state}
                        </Badge>
                      </TableCell>
                      <TableCell className="max-w-80 min-w-48 whitespace-normal">
                        {describeSubscriptionSource(subscription.source, subscription.origin)}
                      </TableCell>
                      <TableCell>
                        <When at={subscription.confirmationSentAt} />
                      </TableCell>
                      <TableCell>
                        <When at={subscription.confirmedAt} />
                      </TableCell>
                      <TableCell className="text-xs">
                        {subscription.confirmedIp ? (
                          <>
                            <div>IP {subscription.confirmedIp}</div>
                            {subscription.confirmedUserAgent && (
                              <div
                                className="max-w-56 truncate text-muted-foreground"
                                title={subscription.confirmedUserAgent}
                              >
                                {subscription.confirmedUserAgent}
                              </div>
                            )}
                          </>
                        ) : (
                          "—"
                        )}
                      </TableCell>
                      <TableCell>
                        <When at={subscription.unsubscribedAt} />
                      </TableCell>
                      <TableCell className="text-right">
                        {canOptOut(subscription.state) && (
                          <UnsubscribeDialog
                            workspaceId={workspaceId}
                            contact={contact}
                            topic={{ id: subscription.topicId, name: subscription.topicName }}
                            action={unsubscribeOnBehalfAction}
                          />
                        )}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
            {!contact.optedOutAt && (
              <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
                <p className="max-w-prose text-sm text-muted-foreground">
                  Asked you to stop by phone, letter or reply? Unsubscribe them here, from one topic or from everything,
                  as their own link would. Only they can resubscribe.
                </p>
                <UnsubscribeDialog
                  workspaceId={workspaceId}
                  contact={contact}
                  topic={null}
                  action={unsubscribeOnBehalfAction}
                />
              </div>
            )}
          </CardContent>
        </Card>
        <ContactSuppressions workspaceId={workspaceId} data={suppression} lift={deleteSuppressionAction} />
        <div className="grid gap-6 lg:grid-cols-2">
          <Card>
            <CardHeader>
              <CardTitle>Fields</CardTitle>
            </CardHeader>
            <CardContent>
              <dl className="grid grid-cols-[minmax(0,10rem)_minmax(0,1fr)] gap-x-4 [overflow-wrap:anywhere] gap-y-2 text-sm">
                <dt className="text-muted-foreground">First name</dt>
                <dd>{contact.firstName ?? "—"}</dd>
                <dt className="text-muted-foreground">Last name</dt>
                <dd>{contact.lastName ?? "—"}</dd>
                <dt className="text-muted-foreground">Time zone</dt>
                <dd data-testid="contact-time-zone">{contact.timeZone ?? "—"}</dd>
                {attributes.map(([key, value]) => (
                  <div key={key} className="contents">
                    <dt className="text-muted-foreground">{key}</dt>
                    <dd>
                      {value === undefined ? "—" : typeof value === "boolean" ? (value ? "Yes" : "No") : String(value)}
                    </dd>
                  </div>
                ))}
              </dl>
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>Lists</CardTitle>
            </CardHeader>
            <CardContent>
              {details.lists.length === 0 ? (
                <p className="text-sm text-muted-foreground">Not on any list.</p>
              ) : (
                <ul className="flex flex-wrap gap-2" aria-label="Lists of this contact">
                  {details.lists.map((list) => (
                    <li key={list.id} className="inline-flex items-center gap-0.5 rounded-md border pl-2 text-sm">
                      <Link href={`/w/${workspaceId}/lists/${list.id}`}>{list.name}</Link>
                      <RemoveFromListButton
                        workspaceId={workspaceId}
                        contactId={contact.id}
                        list={list}
                        action={removeFromListAction}
                      />
                    </li>
                  ))}
                </ul>
              )}
              <div className="mt-4">
                <AddToListForm
                  workspaceId={workspaceId}
                  contactId={contact.id}
                  lists={allLists
                    .filter((list) => !details.lists.some((member) => member.id === list.id))
                    .map(({ id, name }) => ({ id, name }))}
                  action={addToListAction}
                />
              </div>
            </CardContent>
          </Card>
        </div>
        <Card>
          <CardHeader>
            <CardTitle>Campaigns sent</CardTitle>
            <CardDescription>The latest 50 sends and what became of them.</CardDescription>
          </CardHeader>
          <CardContent>
            {details.sends.length === 0 ? (
              <p className="text-sm text-muted-foreground">No campaign has been sent to this contact.</p>
            ) : (
              <Table>
                <TableHeader>
                  <TableRow>
                    <TableHead>Campaign</TableHead>
                    <TableHead>Sent</TableHead>
                    <TableHead>Outcome</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {details.sends.map((send) => (
                    <TableRow key={send.id}>
                      <TableCell>{send.campaignName}</TableCell>
                      <TableCell>
                        <When at={send.acceptedAt} empty="not sent" />
                      </TableCell>
                      <TableCell>{outcome(send)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
          </CardContent>
        </Card>
        <ContactAutomations workspaceId={workspaceId} positions={automationPositions} />
        <Card>
          <CardHeader>
            <CardTitle>Timeline</CardTitle>
            <CardDescription>
              The latest 50 events about this contact, newest first: what your webhooks received.
            </CardDescription>
          </CardHeader>
          <CardContent>
            {details.timeline.length === 0 ? (
              <p className="text-sm text-muted-foreground">Nothing has happened yet.</p>
            ) : (
              <ol className="grid gap-2 text-sm" aria-label="Timeline">
                {details.timeline.map((event) => (
                  <li key={event.id} className="flex flex-wrap gap-x-3">
                    <span className="w-44 shrink-0 text-muted-foreground">
                      <When at={event.occurredAt} />
                    </span>
                    <code className="text-xs">{event.type}</code>
                    <span className="text-muted-foreground">
                      {typeof event.data.topic_name === "string"
                        ? event.data.topic_name
                        : typeof event.data.campaign_name === "string"
                          ? event.data.campaign_name
                          : event.data.scope === "all"
                            ? "everything"
                            : ""}
                    </span>
                    {event.machine && (
                      <Badge variant="secondary" title="Recorded, but not counted as the person's engagement">
                        {machineLabel(event.machine)}
                      </Badge>
                    )}
                    {event.onBehalf && (
                      <span className="min-w-0 basis-full text-muted-foreground [overflow-wrap:anywhere] sm:basis-auto">
                        by {event.onBehalf.by}: “{event.onBehalf.note}”
                      </span>
                    )}
                  </li>
                ))}
              </ol>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Erase this person</CardTitle>
            <CardDescription>
              When they ask you to delete their data: everything about them goes, for good, and no import or API call
              adds them again.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <EraseContactDialog workspaceId={workspaceId} contact={contact} action={eraseContactAction} />
          </CardContent>
        </Card>
      </div>
    </>
  );
}

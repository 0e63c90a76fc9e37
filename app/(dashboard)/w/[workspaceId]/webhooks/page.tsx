import { Webhook } from "lucide-react";
import type { Metadata } from "next";

import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { When } from "@/components/ui/when";
import { CreateEndpointForm, RotateSecretForm } from "@/components/webhooks/webhook-forms";
import { getWorkspaceSession } from "@/lib/dashboard/workspace-session";
import { env } from "@/lib/env";
import { EVENT_TYPES } from "@/lib/events/event-types";
import { deliveriesOf, listEndpoints } from "@/lib/webhooks/endpoints";
import { privateTargetsAllowed, schemeAllowed } from "@/lib/webhooks/target-address";

import { createEndpointAction, enableEndpointAction, rotateSecretAction } from "./actions";

export const metadata: Metadata = { title: "Webhooks" };

const RECENT_DELIVERIES = 20;

/** What the endpoint URL may be here: on a self-hosted install, how its operator allows internal receivers. */
function targetHint(): string {
  if (privateTargetsAllowed())
    return "This installation also delivers to plain http and to private addresses (WEBHOOK_ALLOW_PRIVATE_TARGETS=1).";
  const https = schemeAllowed(new URL("http://receiver.example"))
    ? "A URL on a public address"
    : "An https:// URL on a public address";
  if (env().HOSTED_SERVICE) return `${https}.`;
  return `${https}. For an internal service or a receiver on this machine, set WEBHOOK_ALLOW_PRIVATE_TARGETS=1 where the app runs and restart it.`;
}

/** The workspace's webhook endpoints: add one, rotate its secret, and see every attempt of its recent deliveries. */
export default async function WebhooksPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  const { ctx, actor } = await getWorkspaceSession(workspaceId);
  const endpoints = await Promise.all(
    (await listEndpoints(ctx, actor)).map(async (endpoint) => ({
      endpoint,
      deliveries: await deliveriesOf(ctx, actor, endpoint.id, RECENT_DELIVERIES),
    })),
  );
  return (
    <>
      <PageHeader
        crumbs={[{ label: "Overview", href: `/w/${workspaceId}` }, { label: "Webhooks" }]}
        title="Webhooks"
        description={
          <>
            Each delivery is signed with the endpoint&apos;s secret (<code>X-Service-Signature: t=…,v1=…</code>) and
            retried after 30 s, 2 min, 10 min, 1 h, 3 h, 6 h, 12 h and 24 h until the endpoint answers 2xx within 10 s.
          </>
        }
      />
      <div className="grid min-w-0 gap-6 [&>*]:min-w-0">
        {endpoints.length === 0 && (
          <EmptyState icon={<Webhook />} title="No endpoints yet">
            Add the URL of your server below to receive subscriptions, opt-outs, deliveries, bounces and campaign
            progress as they happen.
          </EmptyState>
        )}
        {endpoints.map(({ endpoint, deliveries }) => (
          <Card key={endpoint.id} data-testid="webhook-endpoint">
            <CardHeader>
              <CardTitle className="break-all">{endpoint.url}</CardTitle>
              <CardDescription className="flex flex-wrap items-center gap-2">
                {endpoint.enabled ? (
                  <Badge variant="success">enabled</Badge>
                ) : (
                  <Badge variant="destructive">disabled: {endpoint.disabledReason ?? ""}</Badge>
                )}
                <span>{endpoint.eventTypes.length === 0 ? "all events" : endpoint.eventTypes.join(", ")}</span>
                {/* No member for endpoints the operator's CLI made, nor for those made before creators were recorded. */}
                <span>· created by {endpoint.createdByEmail ?? "—"}</span>
                {endpoint.failingSince && (
                  <span>
                    · failing since <When at={endpoint.failingSince} />
                  </span>
                )}
                {endpoint.secretRotatedAt && (
                  <span>
                    · secret rotated <When at={endpoint.secretRotatedAt} />
                  </span>
                )}
              </CardDescription>
            </CardHeader>
            <CardContent className="grid gap-4">
              <div className="flex flex-wrap items-start gap-3">
                <RotateSecretForm action={rotateSecretAction.bind(null, workspaceId, endpoint.id)} />
                {!endpoint.enabled && (
                  <form action={enableEndpointAction.bind(null, workspaceId, endpoint.id)}>
                    <Button variant="outline" size="sm" type="submit">
                      Enable again
                    </Button>
                  </form>
                )}
              </div>
              <Table>
                <TableCaption>Latest {RECENT_DELIVERIES} deliveries</TableCaption>
                <TableHeader>
                  <TableRow>
                    <TableHead>Event</TableHead>
                    <TableHead>Status</TableHead>
                    <TableHead>Attempts</TableHead>
                    <TableHead>Next attempt</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {deliveries.map((delivery) => (
                    <TableRow key={delivery.id}>
                      <TableCell>
                        <code className="text-xs">{delivery.eventType}</code>{" "}
                        <span className="text-xs text-muted-foreground">{delivery.eventId}</span>
                      </TableCell>
                      <TableCell>{delivery.status}</TableCell>
                      <TableCell className="whitespace-normal">
                        <details>
                          <summary className="cursor-pointer">{delivery.attemptCount}</summary>
                          <ul className="mt-1 grid gap-1 text-xs">
                            {delivery.attempts.map((attempt) => (
                              <li key={attempt.id}>
                                <When at={attempt.attemptedAt} />: {attempt.statusCode ?? "no answer"} in{" "}
                                {attempt.latencyMs} ms
                                {attempt.error && <> · {attempt.error}</>}
                                {attempt.responseExcerpt && (
                                  <pre className="whitespace-pre-wrap">{attempt.responseExcerpt}</pre>
                                )}
                              </li>
                            ))}
                          </ul>
                        </details>
                      </TableCell>
                      <TableCell>
                        <When at={delivery.nextAttemptAt} />
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </CardContent>
          </Card>
        ))}
        <Card>
          <CardHeader>
            <CardTitle>Add an endpoint</CardTitle>
            <CardDescription>The signing secret is shown once, when the endpoint is added.</CardDescription>
          </CardHeader>
          <CardContent>
            <CreateEndpointForm
              action={createEndpointAction.bind(null, workspaceId)}
              eventTypes={EVENT_TYPES}
              urlHint={targetHint()}
            />
          </CardContent>
        </Card>
      </div>
    </>
  );
}

import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { CreateEndpointForm, RotateSecretForm } from "@/components/webhook-forms";
import { userActor } from "@/lib/actor";
import { requireUser } from "@/lib/auth/current-user";
import { defaultCtx } from "@/lib/context";
import { EVENT_TYPES } from "@/lib/events/record-event";
import { deliveriesOf, listEndpoints } from "@/lib/webhooks/endpoints";
import { requireMembership } from "@/lib/workspaces/require-membership";
import { createEndpointAction, enableEndpointAction, rotateSecretAction } from "./actions";

export const metadata: Metadata = { title: "Webhooks" };

const RECENT_DELIVERIES = 20;
const when = (at: Date | null) => (at ? `${at.toISOString().replace("T", " ").slice(0, 19)} UTC` : "—");

/** The workspace's webhook endpoints: add one, rotate its secret, and see every attempt of its recent deliveries. */
export default async function WebhooksPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  const user = await requireUser();
  const ctx = defaultCtx();
  await requireMembership(ctx, user.id, workspaceId, notFound);
  const actor = userActor(user.id, workspaceId);
  const endpoints = await Promise.all(
    (await listEndpoints(ctx, actor)).map(async (endpoint) => ({ endpoint, deliveries: await deliveriesOf(ctx, actor, endpoint.id, RECENT_DELIVERIES) })),
  );
  return (
    <>
      <h1>Webhooks</h1>
      <p className="muted">
        Each delivery is signed with the endpoint&apos;s secret (<code>X-Service-Signature: t=…,v1=…</code>) and retried after
        30 s, 2 min, 10 min, 1 h, 3 h, 6 h, 12 h and 24 h until the endpoint answers 2xx within 10 s.
      </p>
      {endpoints.length === 0 && <p className="muted">No endpoints yet.</p>}
      <ol className="mailbox">
        {endpoints.map(({ endpoint, deliveries }) => (
          <li key={endpoint.id} className="card message" data-testid="webhook-endpoint">
            <h2>{endpoint.url}</h2>
            <p className="muted">
              <span className="badge">{endpoint.enabled ? "enabled" : `disabled: ${endpoint.disabledReason ?? ""}`}</span>{" "}
              {endpoint.eventTypes.length === 0 ? "all events" : endpoint.eventTypes.join(", ")}
              {endpoint.failingSince && <> · failing since {when(endpoint.failingSince)}</>}
              {endpoint.secretRotatedAt && <> · secret rotated {when(endpoint.secretRotatedAt)}</>}
            </p>
            <RotateSecretForm action={rotateSecretAction.bind(null, workspaceId, endpoint.id)} />
            {!endpoint.enabled && (
              <form action={enableEndpointAction.bind(null, workspaceId, endpoint.id)} className="outcomes">
                <button className="button secondary" type="submit">Enable again</button>
              </form>
            )}
            <table className="deliveries">
              <caption>Latest {RECENT_DELIVERIES} deliveries</caption>
              <thead>
                <tr><th>Event</th><th>Status</th><th>Attempts</th><th>Next attempt</th></tr>
              </thead>
              <tbody>
                {deliveries.map((delivery) => (
                  <tr key={delivery.id}>
                    <td><code>{delivery.eventType}</code> <span className="muted">{delivery.eventId}</span></td>
                    <td>{delivery.status}</td>
                    <td>
                      <details>
                        <summary>{delivery.attemptCount}</summary>
                        <ul>
                          {delivery.attempts.map((attempt) => (
                            <li key={attempt.id}>
                              {when(attempt.attemptedAt)}: {attempt.statusCode ?? "no answer"} in {attempt.latencyMs} ms
                              {attempt.error && <> · {attempt.error}</>}
                              {attempt.responseExcerpt && <pre>{attempt.responseExcerpt}</pre>}
                            </li>
                          ))}
                        </ul>
                      </details>
                    </td>
                    <td>{when(delivery.nextAttemptAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </li>
        ))}
      </ol>
      <h2>Add an endpoint</h2>
      <CreateEndpointForm action={createEndpointAction.bind(null, workspaceId)} eventTypes={EVENT_TYPES} />
    </>
  );
}

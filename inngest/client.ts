import { Inngest, Middleware } from "inngest";

import { workflowsAreEmbedded } from "@/lib/runtime/workflow-mode";

import { sdkLogger } from "./sdk-logger";

export type Enqueue = (
  events: readonly { readonly name: string; readonly data?: unknown; readonly id?: string; readonly ts?: number }[],
) => Promise<string[]>;
let embeddedEnqueue: Enqueue | undefined;

/** The embedded executor registers where sent events go (its run queue in PostgreSQL). */
export function routeEmbeddedEvents(enqueue: Enqueue): void {
  embeddedEnqueue = enqueue;
}

/**
 * In embedded mode every send (inngest.send and step.sendEvent) stays in
 * this process: events become runs in PostgreSQL instead of going to an
 * Inngest server.
 */
class EmbeddedSend extends Middleware.BaseMiddleware {
  readonly id = "embedded-send";
  async wrapSendEvent(args: Middleware.WrapSendEventArgs) {
    if (!workflowsAreEmbedded()) return args.next();
    if (!embeddedEnqueue) throw new Error("embedded workflows are not started in this process");
    return { ids: await embeddedEnqueue(args.events) };
  }
}

export const inngest = new Inngest({
  id: "mailservice",
  // Embedded: no signing key exists and no request is signed; nothing may reach Inngest Cloud.
  isDev: workflowsAreEmbedded() ? true : undefined,
  middleware: [EmbeddedSend],
  logger: sdkLogger(),
});

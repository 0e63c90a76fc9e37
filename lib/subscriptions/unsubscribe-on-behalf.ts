import "server-only";

import { and, eq } from "drizzle-orm";

import { inActorWorkspace, type WorkspaceActor } from "@/lib/actor";
import { unsubscribe } from "@/lib/consent/unsubscribe";
import { getContactOrThrow } from "@/lib/contacts/contact-view";
import { withTransaction, type Ctx } from "@/lib/context";
import { topics } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";
import { parseInput } from "@/lib/validation/parse-input";

import { unsubscribeOnBehalfSchema, type UnsubscribeOnBehalfInput } from "./subscription-schemas";

/**
 * A member unsubscribes a contact for the person, who asked some other way than
 * a link (by phone, by letter, in a reply): from one topic or from everything.
 * It is the opt-out the person's own link makes (lib/consent/unsubscribe.ts), so
 * the subscriptions, the contact's status, the reports and the
 * contact.unsubscribed event and its webhooks are the same; the member and the
 * note are kept beside the event. Nothing here resubscribes: only the person
 * can, from a link in mail they received. An opt-out already made changes
 * nothing and records nothing (`changed` false).
 */
export async function unsubscribeOnBehalf(
  ctx: Ctx,
  actor: WorkspaceActor,
  input: UnsubscribeOnBehalfInput,
): Promise<{ changed: boolean }> {
  const { contactId, topicId, note } = parseInput(unsubscribeOnBehalfSchema, input);
  return withTransaction(ctx, async (tx) => {
    await getContactOrThrow(tx, actor, contactId);
    if (topicId !== null) {
      // An archived topic too: leaving it is harmless, and its subscriptions still show on the contact's page.
      const [topic] = await tx.db
        .select({ id: topics.id })
        .from(topics)
        .where(and(eq(topics.id, topicId), inActorWorkspace(actor, topics.workspaceId)));
      if (!topic) throw notFound("topic_not_found", `No topic ${topicId}.`, "topicId");
    }
    return unsubscribe(tx, {
      contactId,
      ...(topicId === null ? { scope: "all" } : { scope: "topic", topicId }),
      onBehalf: { actor, note },
    });
  });
}

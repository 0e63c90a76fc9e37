import { userActor } from "@/lib/actor";
import { defineAttribute } from "@/lib/contacts/define-attribute";
import type { Ctx } from "@/lib/context";

import { seedTopic, seedWorkspace } from "./factories";

/**
 * A workspace ready for contacts to arrive: its owner as the actor, a topic that needs no confirmation,
 * and two attributes, plan (a string) and seats (a number).
 */
export async function seedContactsWorkspace(ctx: Ctx) {
  const seeded = await seedWorkspace(ctx);
  const actor = userActor(seeded.ownerUserId, seeded.workspaceId);
  const topicId = await seedTopic(ctx, seeded.workspaceId, seeded.brandId, { requiresConfirmation: false });
  await defineAttribute(ctx, actor, { key: "plan", type: "string" });
  await defineAttribute(ctx, actor, { key: "seats", type: "number" });
  return { ...seeded, actor, topicId };
}

export type ContactsWorkspace = Awaited<ReturnType<typeof seedContactsWorkspace>>;

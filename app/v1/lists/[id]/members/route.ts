import { z } from "zod";
import { apiRoute } from "@/lib/api/api-route";
import { addListMembers, removeListMembers } from "@/lib/lists/list-membership";
import { idField } from "@/lib/validation/api-fields";

const membersBody = z.strictObject({ contact_ids: z.array(idField).min(1).max(1000) });

// POST /v1/lists/{id}/members — idempotent; existing members count as already_members.
export const POST = apiRoute({ key: "secret", bucket: "lists.members", body: membersBody }, async ({ ctx, actor, params, body }) => {
  const result = await addListMembers(ctx, actor, params.id!, body.contact_ids);
  return { body: { data: { added: result.added, already_members: result.alreadyMembers, member_count: result.memberCount } } };
});

// DELETE /v1/lists/{id}/members — never unsubscribes anyone.
export const DELETE = apiRoute({ key: "secret", bucket: "lists.members", body: membersBody }, async ({ ctx, actor, params, body }) => {
  const result = await removeListMembers(ctx, actor, params.id!, body.contact_ids);
  return { body: { data: { removed: result.removed, member_count: result.memberCount } } };
});

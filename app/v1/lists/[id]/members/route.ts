import { z } from "zod";

import { apiRoute } from "@/lib/api/api-route";
import { methodsNotAllowed } from "@/lib/api/methods-not-allowed";
import { dataOf, membersAdded, membersRemoved } from "@/lib/api/response-schemas";
import { addListMembers, removeListMembers } from "@/lib/lists/list-membership";
import { idField } from "@/lib/validation/api-fields";

const membersBody = z.strictObject({ contact_ids: z.array(idField).min(1).max(1000) });

// POST /v1/lists/{id}/members — idempotent; existing members count as already_members.
export const POST = apiRoute(
  {
    key: "secret",
    bucket: "lists.members",
    body: membersBody,
    doc: {
      summary: "Add contacts to a list",
      description: "Idempotent: contacts already on the list count as `already_members`.",
      responses: { 200: { description: "What changed.", schema: dataOf(membersAdded) } },
      errors: [
        { status: 404, code: "list_not_found", when: "No such list on the workspace." },
        { status: 404, code: "contact_not_found", when: "A `contact_ids` entry names no contact of the workspace." },
        {
          status: 400,
          code: "contact_erased",
          when: "A `contact_ids` entry names a contact erased at the person's request.",
        },
      ],
      example: { body: { contact_ids: ["ct_01hzy3v1q8m0c2d5r7t9w1x3y5"] } },
    },
  },
  async ({ ctx, actor, params, body }) => {
    const result = await addListMembers(ctx, actor, params.id!, body.contact_ids);
    return {
      body: { data: { added: result.added, already_members: result.alreadyMembers, member_count: result.memberCount } },
    };
  },
);

// DELETE /v1/lists/{id}/members — never unsubscribes anyone.
export const DELETE = apiRoute(
  {
    key: "secret",
    bucket: "lists.members",
    body: membersBody,
    doc: {
      summary: "Remove contacts from a list",
      description: "Never unsubscribes anyone: topics hold consent, lists do not.",
      responses: { 200: { description: "What changed.", schema: dataOf(membersRemoved) } },
      errors: [
        { status: 404, code: "list_not_found", when: "No such list on the workspace." },
        { status: 404, code: "contact_not_found", when: "A `contact_ids` entry names no contact of the workspace." },
      ],
      example: { body: { contact_ids: ["ct_01hzy3v1q8m0c2d5r7t9w1x3y5"] } },
    },
  },
  async ({ ctx, actor, params, body }) => {
    const result = await removeListMembers(ctx, actor, params.id!, body.contact_ids);
    return { body: { data: { removed: result.removed, member_count: result.memberCount } } };
  },
);

export const { GET, PUT, PATCH } = methodsNotAllowed("POST", "DELETE");

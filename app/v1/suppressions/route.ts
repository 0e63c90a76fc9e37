import { apiRoute } from "@/lib/api/api-route";
import { methodsNotAllowed } from "@/lib/api/methods-not-allowed";
import { toListBody } from "@/lib/api/pagination";
import { dataOf, listOf, suppression } from "@/lib/api/response-schemas";
import { createSuppression } from "@/lib/suppressions/create-suppression";
import { listSuppressions } from "@/lib/suppressions/list-suppressions";
import { createSuppressionSchema } from "@/lib/suppressions/suppression-schemas";

import { serializeSuppression } from "./serializers";

// GET /v1/suppressions
export const GET = apiRoute(
  {
    key: "secret",
    bucket: "suppressions.list",
    paginated: true,
    doc: {
      summary: "List suppressions",
      responses: { 200: { description: "A page of suppressions.", schema: listOf(suppression) } },
    },
  },
  async ({ ctx, actor, page }) => {
    const rows = await listSuppressions(ctx, actor, page);
    return { body: toListBody(rows, page, page.scope, serializeSuppression) };
  },
);

// POST /v1/suppressions — an address or a whole domain; 200 with the existing row when already blocked.
export const POST = apiRoute(
  {
    key: "secret",
    bucket: "suppressions.write",
    body: createSuppressionSchema,
    doc: {
      summary: "Suppress an address or a domain",
      description:
        "Give `email` or `domain`, not both. A suppressed address is never sent to; a domain suppression blocks every address at it, now and later.",
      responses: {
        201: { description: "Created.", schema: dataOf(suppression) },
        200: { description: "Already suppressed: the existing suppression.", schema: dataOf(suppression) },
      },
      example: { body: { email: "no-more@example.com", note: "Asked by phone" } },
    },
  },
  async ({ ctx, actor, body }) => {
    const { suppression, created } = await createSuppression(ctx, actor, {
      email: body.email,
      domain: body.domain,
      note: body.note,
    });
    return { status: created ? 201 : 200, body: { data: serializeSuppression(suppression) } };
  },
);

export const { PUT, PATCH, DELETE } = methodsNotAllowed("GET", "POST");

import { apiRoute } from "@/lib/api/api-route";
import { toListBody } from "@/lib/api/pagination";
import { createSuppression } from "@/lib/suppressions/create-suppression";
import { listSuppressions } from "@/lib/suppressions/list-suppressions";
import { createSuppressionSchema } from "@/lib/suppressions/suppression-schemas";
import { serializeSuppression } from "./serializers";

// GET /v1/suppressions
export const GET = apiRoute({ key: "secret", bucket: "suppressions.list", paginated: true }, async ({ ctx, actor, page }) => {
  const rows = await listSuppressions(ctx, actor, page);
  return { body: toListBody(rows, page, page.scope, serializeSuppression) };
});

// POST /v1/suppressions — an address or a whole domain; 200 with the existing row when already blocked.
export const POST = apiRoute({ key: "secret", bucket: "suppressions.write", body: createSuppressionSchema }, async ({ ctx, actor, body }) => {
  const { suppression, created } = await createSuppression(ctx, actor, { email: body.email, domain: body.domain, note: body.note });
  return { status: created ? 201 : 200, body: { data: serializeSuppression(suppression) } };
});

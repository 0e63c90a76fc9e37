import { z } from "zod";
import { apiRoute } from "@/lib/api/api-route";
import { toListBody } from "@/lib/api/pagination";
import { validationFailed } from "@/lib/errors";
import { createSuppression } from "@/lib/suppressions/create-suppression";
import { listSuppressions } from "@/lib/suppressions/list-suppressions";
import { domainField } from "@/lib/validation/api-fields";
import { emailField } from "@/lib/validation/fields";
import { serializeSuppression } from "./serializers";

const createBody = z.strictObject({ email: emailField.optional(), domain: domainField.optional(), note: z.string().max(1000).optional() });

// GET /v1/suppressions
export const GET = apiRoute({ key: "secret", bucket: "suppressions.list", paginated: true }, async ({ ctx, caller, page }) => {
  const rows = await listSuppressions(ctx, caller, page);
  return { body: toListBody(rows, page, page.scope, serializeSuppression) };
});

// POST /v1/suppressions — an address or a whole domain; 200 with the existing row when already blocked.
export const POST = apiRoute({ key: "secret", bucket: "suppressions.write", body: createBody }, async ({ ctx, caller, body }) => {
  if ((body.email === undefined) === (body.domain === undefined)) throw validationFailed(body.domain ? "domain" : "email", "Give one of `email` or `domain`.");
  const { suppression, created } = await createSuppression(ctx, caller, { email: body.email, domain: body.domain, note: body.note });
  return { status: created ? 201 : 200, body: { data: serializeSuppression(suppression) } };
});

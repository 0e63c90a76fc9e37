import { apiRoute } from "@/lib/api/api-route";
import { deleteSuppression } from "@/lib/suppressions/delete-suppression";

// DELETE /v1/suppressions/{id} — lifts the block only; resubscribes nobody.
export const DELETE = apiRoute({ key: "secret", bucket: "suppressions.write" }, async ({ ctx, actor, params }) => {
  await deleteSuppression(ctx, actor, params.id!);
  return { body: { data: { id: params.id, deleted: true } } };
});

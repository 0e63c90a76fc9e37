import { apiRoute } from "@/lib/api/api-route";
import { methodsNotAllowed } from "@/lib/api/methods-not-allowed";
import { dataOf, suppressionDeleted } from "@/lib/api/response-schemas";
import { deleteSuppression } from "@/lib/suppressions/delete-suppression";

// DELETE /v1/suppressions/{id} — lifts the block only; resubscribes nobody.
export const DELETE = apiRoute(
  {
    key: "secret",
    bucket: "suppressions.write",
    doc: {
      summary: "Lift a suppression",
      description: "Lifts the block only: it resubscribes nobody.",
      responses: { 200: { description: "Deleted.", schema: dataOf(suppressionDeleted) } },
      errors: [
        { status: 404, code: "suppression_not_found", when: "No such suppression on the workspace." },
        {
          status: 400,
          code: "suppression_not_removable",
          when: "The suppression records a complaint: it can never be lifted.",
        },
      ],
    },
  },
  async ({ ctx, actor, params }) => {
    await deleteSuppression(ctx, actor, params.id!);
    return { body: { data: { id: params.id, deleted: true } } };
  },
);

export const { GET, POST, PUT, PATCH } = methodsNotAllowed("DELETE");

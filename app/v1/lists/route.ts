import { apiRoute } from "@/lib/api/api-route";
import { methodsNotAllowed } from "@/lib/api/methods-not-allowed";
import { toListBody } from "@/lib/api/pagination";
import { list, listOf } from "@/lib/api/response-schemas";
import { listLists, type ListView } from "@/lib/lists/list-lists";

function serializeList(list: ListView) {
  return {
    id: list.id,
    name: list.name,
    description: list.description,
    brand_id: list.brandId,
    member_count: list.memberCount,
    created_at: list.createdAt.toISOString(),
  };
}

// GET /v1/lists
export const GET = apiRoute(
  {
    key: "secret",
    bucket: "lists.list",
    paginated: true,
    doc: {
      summary: "List lists",
      description: "Lists are the sender's own groupings; membership never implies consent.",
      responses: { 200: { description: "A page of lists.", schema: listOf(list) } },
    },
  },
  async ({ ctx, actor, page }) => {
    const rows = await listLists(ctx, actor, page);
    return { body: toListBody(rows, page, page.scope, serializeList) };
  },
);

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed("GET");

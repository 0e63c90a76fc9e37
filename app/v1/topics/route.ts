import { apiRoute } from "@/lib/api/api-route";
import { methodsNotAllowed } from "@/lib/api/methods-not-allowed";
import { toListBody } from "@/lib/api/pagination";
import { listOf, topic } from "@/lib/api/response-schemas";
import { listTopics, type TopicView } from "@/lib/topics/list-topics";

function serializeTopic(topic: TopicView) {
  return {
    id: topic.id,
    name: topic.name,
    description: topic.description,
    brand_id: topic.brandId,
    requires_confirmation: topic.requiresConfirmation,
    subscriber_count: topic.subscriberCount,
    created_at: topic.createdAt.toISOString(),
  };
}

// GET /v1/topics — topics are created in the dashboard, never through the API.
export const GET = apiRoute(
  {
    key: "secret",
    bucket: "topics.list",
    paginated: true,
    doc: {
      summary: "List topics",
      description: "Topics are created in the dashboard, never through the API. Archived topics are absent.",
      responses: { 200: { description: "A page of topics.", schema: listOf(topic) } },
    },
  },
  async ({ ctx, actor, page }) => {
    const rows = await listTopics(ctx, actor, page);
    return { body: toListBody(rows, page, page.scope, serializeTopic) };
  },
);

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed("GET");

import { workflowRouteHandlers } from "@/inngest/serve-route";

// GET, POST, PUT /api/inngest — where an Inngest server (dev, self-hosted or Cloud) calls our functions; 404 when workflows are embedded.
export const { GET, POST, PUT } = workflowRouteHandlers();

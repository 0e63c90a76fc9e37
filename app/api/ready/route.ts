import { executorIsRunning } from "@/inngest/embedded/running-executor";
import { defaultCtx } from "@/lib/context";
import { checkReadiness } from "@/lib/runtime/readiness";

export const dynamic = "force-dynamic";

// GET /api/ready — readiness for load balancers: 200 when the database answers, its migrations match this
// build and the embedded executor runs; 503 with the failing check otherwise. /api/health is liveness only.
export async function GET(): Promise<Response> {
  const readiness = await checkReadiness(defaultCtx(), executorIsRunning);
  return Response.json(
    { status: readiness.ready ? "ready" : "not_ready", checks: readiness.checks },
    { status: readiness.ready ? 200 : 503, headers: { "cache-control": "no-store" } },
  );
}

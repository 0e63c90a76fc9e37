// GET /api/health — liveness for load balancers; touches nothing, so it is also the framework's floor in benchmarks.
export function GET(): Response {
  return Response.json({ status: "ok" });
}

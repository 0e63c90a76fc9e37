// A worker process running the event-started workflows as the app runs them, on a clock its parent moves: the
// automation chaos test makes people's waits pass without waiting for them. The clock is real time
// plus an offset (CLOCK_OFFSET_MS at start, then each { clockOffsetMs } message), so leases still
// lapse in real time when a killed worker leaves its runs behind. Steps act with the same clock.
import { functions } from "@/inngest";
import { inngest } from "@/inngest/client";
import { connectWorkflowEvents } from "@/inngest/emit";
import { setWorkflowCtx } from "@/inngest/workflow-ctx";
import type { Clock } from "@/lib/clock";
import type { Ctx } from "@/lib/context";
import { getDb } from "@/lib/db/client";

import { createEmbeddedExecutor } from "../executor";

let offsetMs = Number(process.env.CLOCK_OFFSET_MS ?? 0);
process.on("message", (message: { clockOffsetMs?: number }) => {
  if (typeof message.clockOffsetMs === "number") offsetMs = message.clockOffsetMs;
});
// A move sent while this process was loading found no listener and is lost: the parent answers this with the clock as it is now.
process.send?.({ listening: true });
const clock: Clock = { now: () => new Date(Date.now() + offsetMs) };
const ctx: Ctx = { db: getDb(), clock };
setWorkflowCtx(ctx);
connectWorkflowEvents();
// The parent moves the clock by days: the daily crons would fire in between and change what the runs see
// (the domain re-check looks up the test's made-up domain, finds no records and puts the brand back in
// the sandbox). The chaos is in the runs, so the worker runs the functions events start, not the crons.
const triggers = (fn: (typeof functions)[number]) =>
  (fn as unknown as { opts: { triggers?: { cron?: string }[] } }).opts.triggers ?? [];
const executor = createEmbeddedExecutor({
  client: inngest,
  functions: functions.filter((fn) => !triggers(fn).some((trigger) => trigger.cron)),
  leaseMs: 1000,
  workers: Number(process.env.WORKFLOW_WORKERS ?? 8),
});
await executor.start(ctx, 100);
// The executor's poll timer does not keep the process alive on its own.
setInterval(() => {}, 60_000);

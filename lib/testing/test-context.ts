import { fixedClock } from "@/lib/clock";
import type { Ctx } from "@/lib/context";
import { getDb } from "@/lib/db/client";

/** A context on this test file's database with a clock the test can move. */
export function testCtx(start = new Date("2026-01-05T10:00:00.000Z")) {
  const clock = fixedClock(start);
  const ctx: Ctx = { db: getDb(), clock };
  return { ctx, clock };
}

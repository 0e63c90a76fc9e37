import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { captureLogs } from "@/lib/testing/capture-logs";
import { testCtx } from "@/lib/testing/test-context";

import { logger } from "./logger";

const { ctx } = testCtx();

describe("logs", () => {
  it("a failed query's parameters never reach a log line; its query text and cause do", async () => {
    const logs = captureLogs();
    try {
      const failure = await ctx.db.execute(sql`select ${"whsec_not_for_logs"}::text, 1 / 0`).then(
        () => null,
        (error: unknown) => error,
      );
      expect(failure).not.toBeNull();
      logger().error({ err: failure }, "query failed");
      const [line] = logs.withMessage("query failed");
      const written = JSON.stringify(line);
      expect(written).not.toContain("whsec_not_for_logs");
      expect(written).toContain("params: [redacted]");
      expect(written).toContain("select $1::text, 1 / 0");
      expect(written).toContain("division by zero");
    } finally {
      logs.restore();
    }
  });
});

import { sql } from "drizzle-orm";
import { eventType } from "inngest";

import { inngest } from "@/inngest/client";
import { getDb } from "@/lib/db/client";

/** For the crash test: records each step's side effect; hangs in the second step when CRASH=1. */
export const crashTest = eventType("test/crash");

export const crashFunction = inngest.createFunction({ id: "crash-test", triggers: [crashTest] }, async ({ step }) => {
  await step.run("first", () =>
    getDb()
      .execute(sql`insert into crash_effects (step) values ('first')`)
      .then(() => "first done"),
  );
  return step.run("second", async () => {
    await getDb().execute(sql`insert into crash_effects (step) values ('second')`);
    if (process.env.CRASH === "1") await new Promise(() => {}); // killed here
    return "second done";
  });
});

import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { functions } from "@/inngest";
import { inngest, routeEmbeddedEvents } from "@/inngest/client";
import { createEmbeddedExecutor } from "@/inngest/embedded/executor";
import { spawnWorker } from "@/inngest/embedded/testing/spawn-worker";
import { setWorkflowCtx } from "@/inngest/workflow-ctx";
import { systemClock } from "@/lib/clock";
import { billingNotices, mailMessages, users, workspaceBilling } from "@/lib/db/schema";
import { overrideEnvForTests, reloadEnv } from "@/lib/env";
import { seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { issueInvoice, recordPaymentFailed, settleInvoice } from "./invoices";
import { ladderSteps } from "./ladder-schedule";
import { ladderLengths } from "./plan-defaults";

// The ladder on real time, in seconds instead of weeks, so a worker process can be killed in the middle of it:
// overdue for 3 s, read-only for 8 s, deletion 6 s after its notice with reminders every 3 s. Long enough that a
// slow worker start (tsx) still finds the episode before its end.
const seconds = (n: number) => String(n / 86_400);
const SECONDS_AS_DAYS = {
  BILLING_OVERDUE_DAYS: seconds(3),
  BILLING_READ_ONLY_DAYS: seconds(8),
  BILLING_DELETION_NOTICE_DAYS: seconds(6),
  BILLING_REMINDER_EVERY_DAYS: seconds(3),
};
const ctx = { ...testCtx().ctx, clock: systemClock };
const executor = createEmbeddedExecutor({ client: inngest, functions, leaseMs: 1000 });
beforeAll(() => {
  overrideEnvForTests(SECONDS_AS_DAYS);
  setWorkflowCtx(ctx);
  routeEmbeddedEvents((sent) => executor.enqueue(ctx, sent));
});
afterAll(() => {
  reloadEnv();
  setWorkflowCtx(undefined);
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("billing ladder across a restart", () => {
  it("killing the worker in the middle of the ladder loses no step and repeats no mail", async () => {
    const { workspaceId, ownerUserId } = await seedWorkspace(ctx);
    await settleInvoice(ctx, (await issueInvoice(ctx, { workspaceId, amount: 7900, plan: "growth" })).id);
    const [owner] = await ctx.db.select({ email: users.email }).from(users).where(eq(users.id, ownerUserId));
    await recordPaymentFailed(ctx, (await issueInvoice(ctx, { workspaceId, amount: 7900 })).id);
    const steps = async () =>
      (
        await ctx.db
          .select({ step: billingNotices.step })
          .from(billingNotices)
          .where(eq(billingNotices.workspaceId, workspaceId))
      ).map((row) => row.step);

    const child = spawnWorker(SECONDS_AS_DAYS);
    for (let i = 0; i < 600 && !(await steps()).includes("read_only"); i++) await pause(50);
    child.kill("SIGKILL");
    await child.exited;
    expect(await steps()).toContain("read_only");
    expect(await steps()).not.toContain("deleted");

    // The dead worker's lease runs out and this process walks the rest of the ladder.
    const done = async () =>
      (
        await ctx.db
          .select({ at: workspaceBilling.dataDeletedAt })
          .from(workspaceBilling)
          .where(eq(workspaceBilling.workspaceId, workspaceId))
      )[0]!.at !== null;
    for (let i = 0; i < 600 && !(await done()); i++) {
      await executor.runDue(ctx);
      await pause(100);
    }
    expect(await done()).toBe(true);

    const expected = ladderSteps("payment_failed", ladderLengths()).map((step) => step.step);
    expect((await steps()).sort()).toEqual([...expected].sort());
    const mail = await ctx.db
      .select({ subject: mailMessages.subject })
      .from(mailMessages)
      .where(eq(mailMessages.toAddress, owner!.email))
      .orderBy(asc(mailMessages.id));
    const subjects = mail.map((m) => m.subject);
    // One mail per step recorded as mailed (steps overtaken while the worker was down are recorded unmailed), none twice.
    const mailed = await ctx.db
      .select({ step: billingNotices.step })
      .from(billingNotices)
      .where(and(eq(billingNotices.workspaceId, workspaceId), eq(billingNotices.mailed, true)));
    expect(subjects).toHaveLength(mailed.length);
    const stageMail = subjects.filter((subject) => !subject.startsWith("Reminder: "));
    expect(new Set(stageMail).size).toBe(stageMail.length);
    expect(subjects[0]).toMatch(/sending is paused$/);
    expect(subjects).toContainEqual(expect.stringMatching(/is now read-only$/));
    expect(subjects.at(-1)).toMatch(/was deleted$/);
  });
});

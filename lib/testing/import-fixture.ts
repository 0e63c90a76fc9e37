import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";

import { functions } from "@/inngest";
import { inngest, routeEmbeddedEvents } from "@/inngest/client";
import { createEmbeddedExecutor } from "@/inngest/embedded/executor";
import { setWorkflowCtx } from "@/inngest/workflow-ctx";
import { contacts, events } from "@/lib/db/schema";
import { reloadEnv } from "@/lib/env";
import { checkImport } from "@/lib/imports/check-import";
import { getImportRowOrThrow } from "@/lib/imports/get-import";
import { startImport } from "@/lib/imports/import-actions";
import { checkImportSchema } from "@/lib/imports/import-schemas";
import { receiveImport } from "@/lib/imports/receive-import";

import { seedContactsWorkspace, type ContactsWorkspace } from "./contacts-workspace";
import { testCtx } from "./test-context";

/** An upload's body, arriving in these parts. */
export async function* bytesOf(...parts: (string | Buffer)[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield typeof part === "string" ? Buffer.from(part) : part;
}

/**
 * What a CSV import test file shares: a context with a clock the test moves, an embedded executor
 * that runs the workflows the import starts (`drain`), and the steps of an import from upload to apply.
 * Call it once at the top of the file: it registers the hooks that route workflow events to the executor.
 */
export function importTestFixture() {
  const { ctx, clock } = testCtx(new Date(Date.now() + 60 * 60_000));
  const executor = createEmbeddedExecutor({ client: inngest, functions });
  beforeAll(() => {
    setWorkflowCtx(ctx);
    routeEmbeddedEvents((sent) => executor.enqueue(ctx, sent));
  });
  afterAll(() => {
    setWorkflowCtx(undefined);
    reloadEnv();
  });

  async function drain(times = 30) {
    for (let i = 0; i < times; i++) {
      clock.advance(1000);
      await executor.runDue(ctx);
    }
  }

  const workspace = () => seedContactsWorkspace(ctx);

  /** Upload, dry run, apply and run the workflow to the end. */
  async function importCsv(
    w: ContactsWorkspace,
    csv: string | Buffer,
    input: Partial<Record<string, unknown>> = {},
    opts: { apply?: boolean } = {},
  ) {
    const { importId } = await receiveImport(ctx, w.actor, { fileName: "people.csv", body: bytesOf(csv) });
    const imp = await getImportRowOrThrow(ctx, w.actor, importId);
    const mapping = imp.header.map(
      (h) =>
        ({
          email: "email",
          first: "first_name",
          last: "last_name",
          plan: "attributes.plan",
          seats: "attributes.seats",
          zone: "time_zone",
        })[h] ?? "",
    );
    const checked = await checkImport(ctx, w.actor, importId, checkImportSchema.parse({ mapping, ...input }));
    if (opts.apply === false) return { importId, checked, applied: null };
    await startImport(ctx, w.actor, importId);
    await drain();
    const done = await getImportRowOrThrow(ctx, w.actor, importId);
    return { importId, checked, applied: done.applied, status: done.status };
  }

  /** The workspace's contacts, and its contact.subscribed events, counted. */
  async function written(w: ContactsWorkspace): Promise<{ contacts: number; announced: number }> {
    const [made] = await ctx.db.select({ n: count() }).from(contacts).where(eq(contacts.workspaceId, w.workspaceId));
    const [announced] = await ctx.db
      .select({ n: count() })
      .from(events)
      .where(and(eq(events.workspaceId, w.workspaceId), eq(events.type, "contact.subscribed")));
    return { contacts: made!.n, announced: announced!.n };
  }

  const contactOf = async (w: ContactsWorkspace, email: string) =>
    (
      await ctx.db
        .select()
        .from(contacts)
        .where(and(eq(contacts.workspaceId, w.workspaceId), eq(contacts.email, email)))
    )[0];

  return { ctx, clock, drain, workspace, importCsv, written, contactOf };
}

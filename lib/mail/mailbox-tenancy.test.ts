import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { systemActor, userActor } from "@/lib/actor";
import { suppressions } from "@/lib/db/schema";
import { seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { listMailbox } from "./list-mailbox";
import { simulateOutcome } from "./simulate-outcome";
import { localTransport } from "./transports/local-transport";

const { ctx } = testCtx();
const operator = systemActor("test");

function mail(workspaceId: string, key: string) {
  return {
    workspaceId,
    idempotencyKey: key,
    from: { name: "Brand", address: "news@brand.example" },
    to: "reader@example.com",
    subject: key,
    text: "hi",
    html: "<p>hi</p>",
  };
}

/** Each workspace's local mailbox holds one message to the same address. */
async function tenants() {
  const a = await seedWorkspace(ctx);
  const b = await seedWorkspace(ctx);
  const messageOfA = (await localTransport().send(ctx, mail(a.workspaceId, `a-${a.workspaceId}`))).providerMessageId;
  const messageOfB = (await localTransport().send(ctx, mail(b.workspaceId, `b-${b.workspaceId}`))).providerMessageId;
  return { a, b, messageOfA, messageOfB, memberOfA: userActor(a.ownerUserId, a.workspaceId) };
}

const suppressedIn = async (workspaceId: string) =>
  ctx.db.select().from(suppressions).where(eq(suppressions.workspaceId, workspaceId));

describe("the local mailbox is reached only from its own workspace", () => {
  it("listMailbox: a member of workspace A sees A's mail only; the operator sees B's too", async () => {
    const { messageOfA, messageOfB, memberOfA } = await tenants();
    expect((await listMailbox(ctx, memberOfA)).map((m) => m.id)).toEqual([messageOfA]);
    expect((await listMailbox(ctx, operator, { to: "reader@example.com" })).map((m) => m.id)).toEqual(
      expect.arrayContaining([messageOfA, messageOfB]),
    );
  });

  it("simulateOutcome: a member of workspace A cannot report an outcome for workspace B's message; the operator can", async () => {
    const { b, messageOfB, memberOfA } = await tenants();
    await expect(simulateOutcome(ctx, memberOfA, messageOfB, { type: "complained" })).rejects.toMatchObject({
      code: "message_not_found",
    });
    expect(await suppressedIn(b.workspaceId)).toEqual([]);
    expect(await simulateOutcome(ctx, operator, messageOfB, { type: "complained" })).toEqual({
      workspaceId: b.workspaceId,
      suppressed: true,
    });
    expect(await suppressedIn(b.workspaceId)).toMatchObject([{ email: "reader@example.com", reason: "complaint" }]);
  });
});

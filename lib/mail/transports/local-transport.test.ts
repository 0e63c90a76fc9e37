import { eq, sql } from "drizzle-orm";
import { simpleParser } from "mailparser";
import { describe, expect, it } from "vitest";

import { mailMessages, workspaces } from "@/lib/db/schema";
import { seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { localTransport } from "./local-transport";

const { ctx } = testCtx();
const message = {
  workspaceId: null,
  idempotencyKey: "cfr_local_1",
  from: { name: "Brand", address: "news@brand.example" },
  to: "reader@example.com",
  subject: "Confirm",
  text: "Confirm: https://app.example/c/1",
  html: '<a href="https://app.example/c/1">Confirm</a>',
};

describe("local transport", () => {
  it("stores the complete message in PostgreSQL", async () => {
    const { providerMessageId } = await localTransport().send(ctx, message);
    const [row] = await ctx.db.select().from(mailMessages).where(eq(mailMessages.id, providerMessageId));
    expect(row).toMatchObject({
      toAddress: "reader@example.com",
      fromAddress: "news@brand.example",
      subject: "Confirm",
    });
    const parsed = await simpleParser(row!.raw);
    expect(parsed.subject).toBe("Confirm");
    expect(parsed.messageId).toBe(row!.messageId);
  });

  it("a retry with the same idempotency key stores nothing twice", async () => {
    const transport = localTransport();
    const first = await transport.send(ctx, { ...message, idempotencyKey: "cfr_local_2" });
    const again = await transport.send(ctx, { ...message, idempotencyKey: "cfr_local_2" });
    expect(again.providerMessageId).toBe(first.providerMessageId);
    expect(await ctx.db.select().from(mailMessages).where(eq(mailMessages.idempotencyKey, "cfr_local_2"))).toHaveLength(
      1,
    );
  });

  it("sendAndRecord stores the message and its record in one statement: a record that fails leaves no message stored", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const transport = localTransport();
    const recordAs = (name: string | null) => sql`update ${workspaces} set name = ${name} where id = ${workspaceId}`;
    // The record fails (a workspace's name may not be null): the message goes with it.
    await expect(
      transport.sendAndRecord(ctx, { ...message, idempotencyKey: "cfr_local_3" }, recordAs(null)),
    ).rejects.toThrow();
    expect(await ctx.db.select().from(mailMessages).where(eq(mailMessages.idempotencyKey, "cfr_local_3"))).toHaveLength(
      0,
    );
    const { providerMessageId } = await transport.sendAndRecord(
      ctx,
      { ...message, idempotencyKey: "cfr_local_3" },
      recordAs("recorded"),
    );
    const [stored] = await ctx.db.select().from(mailMessages).where(eq(mailMessages.idempotencyKey, "cfr_local_3"));
    expect(stored!.id).toBe(providerMessageId);
    const [workspace] = await ctx.db.select().from(workspaces).where(eq(workspaces.id, workspaceId));
    expect(workspace!.name).toBe("recorded");
  });

  it("sendAndRecord run again with the same idempotency key stores nothing twice and answers the first copy", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const transport = localTransport();
    const record = sql`update ${workspaces} set name = name || '+' where id = ${workspaceId}`;
    const first = await transport.sendAndRecord(ctx, { ...message, idempotencyKey: "cfr_local_4" }, record);
    const again = await transport.sendAndRecord(ctx, { ...message, idempotencyKey: "cfr_local_4" }, record);
    expect(again.providerMessageId).toBe(first.providerMessageId);
    expect(await ctx.db.select().from(mailMessages).where(eq(mailMessages.idempotencyKey, "cfr_local_4"))).toHaveLength(
      1,
    );
  });
});

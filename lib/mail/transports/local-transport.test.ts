import { eq } from "drizzle-orm";
import { simpleParser } from "mailparser";
import { describe, expect, it } from "vitest";

import { mailMessages } from "@/lib/db/schema";
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
});

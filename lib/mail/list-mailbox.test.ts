import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { extractLinks, listMailbox } from "./list-mailbox";
import { signedMessageId } from "./message-id";
import { localTransport } from "./transports/local-transport";

const { ctx, clock } = testCtx();

function mail(workspaceId: string | null, key: string, to: string) {
  return {
    workspaceId,
    idempotencyKey: key,
    from: { name: "Brand", address: "news@brand.example" },
    to,
    subject: `Message ${key}`,
    text: "Open https://app.example/text-link",
    html: '<p><a href="https://app.example/c?t=1&amp;x=2">Confirm</a> <a href="mailto:help@brand.example">help</a></p>',
    headers: { "List-Id": "<news.brand.example>" },
  };
}

describe("local mailbox", () => {
  it("lists stored messages newest first with headers, text, HTML and the links a reader could follow", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const transport = localTransport();
    await transport.send(ctx, mail(workspaceId, "k1", "first@example.com"));
    clock.advance(1000);
    await transport.send(ctx, mail(workspaceId, "k2", "second@example.com"));
    const messages = await listMailbox(ctx, systemActor("test", workspaceId));
    expect(messages.map((m) => m.subject)).toEqual(["Message k2", "Message k1"]);
    const [latest] = messages;
    expect(latest).toMatchObject({
      to: "second@example.com",
      from: "news@brand.example",
      text: expect.stringContaining("text-link"),
    });
    expect(latest!.headers).toMatchObject({
      From: "Brand <news@brand.example>",
      "List-Id": "<news.brand.example>",
      "Message-ID": signedMessageId("k2", "brand.example"),
    });
    expect(latest!.links).toEqual(["https://app.example/c?t=1&x=2"]);
    expect(latest!.sentAt).toEqual(clock.now());
  });

  it("filters by recipient (any case) and by workspace", async () => {
    const a = await seedWorkspace(ctx);
    const b = await seedWorkspace(ctx);
    await localTransport().send(ctx, mail(a.workspaceId, "ka", "Reader@Example.com".toLowerCase()));
    await localTransport().send(ctx, mail(b.workspaceId, "kb", "reader@example.com"));
    expect(
      (await listMailbox(ctx, systemActor("test"), { to: "READER@example.com" })).map((m) => m.subject).sort(),
    ).toEqual(["Message ka", "Message kb"]);
    expect((await listMailbox(ctx, systemActor("test", b.workspaceId))).map((m) => m.subject)).toEqual(["Message kb"]);
  });

  it("takes links from the text part when there is no HTML", () => {
    expect(extractLinks("", "Confirm: https://app.example/c/abc. Thanks")).toEqual(["https://app.example/c/abc."]);
  });
});

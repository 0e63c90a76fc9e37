import { simpleParser } from "mailparser";
import { describe, expect, it } from "vitest";

import { fixedClock } from "@/lib/clock";

import { buildMessage } from "./build-message";
import { signedMessageId } from "./message-id";
import type { OutgoingMessage } from "./outgoing-message";

const clock = fixedClock(new Date("2026-05-04T09:30:00.000Z"));

const message: OutgoingMessage = {
  workspaceId: null,
  idempotencyKey: "snd_01abc",
  from: { name: "Café Brand", address: "news@brand.example" },
  replyTo: "support@brand.example",
  to: "reader@example.com",
  subject: "Grüße — this week's news",
  text: "Hello Zoë,\nread more at https://brand.example/news",
  html: '<p>Hello Zoë,</p><p><a href="https://brand.example/news?a=1&amp;b=2">Read more</a></p>',
  headers: { "List-Id": "<news.brand.example>", "List-Unsubscribe": "<https://app.example/u/tok>" },
};

describe("message builder", () => {
  it("gives each message a multipart boundary of its own, so that no content can be written to hold it", async () => {
    const boundaryOf = (raw: Buffer) => raw.toString("utf8").match(/boundary="([^"]+)"/)![1]!;
    const first = boundaryOf(buildMessage(message, clock).raw);
    expect(first.length).toBeLessThanOrEqual(70); // RFC 2046
    // Content holding the last message's boundary line cuts nothing in the next one.
    const next = buildMessage(
      { ...message, text: `before\n--${first}\nafter`, html: `<p>before</p>\n--${first}\n<p>after</p>` },
      clock,
    );
    expect(boundaryOf(next.raw)).not.toBe(first);
    const parsed = await simpleParser(next.raw);
    expect(parsed.text).toContain("after");
    expect(parsed.html).toContain("<p>after</p>");
  });

  it("builds a complete RFC 5322 message: multipart text and HTML, Message-ID, Date, From with the brand's name, Reply-To", async () => {
    const built = buildMessage(message, clock);
    const raw = built.raw.toString("utf8");
    expect(raw).toMatch(/^Content-Type: multipart\/alternative;/m);
    expect(raw).toMatch(/^MIME-Version: 1\.0$/m);
    const parsed = await simpleParser(built.raw);
    expect(parsed.from?.value).toEqual([{ name: "Café Brand", address: "news@brand.example" }]);
    expect(parsed.replyTo?.value[0]?.address).toBe("support@brand.example");
    expect((parsed.to as { value: { address: string }[] }).value[0]!.address).toBe("reader@example.com");
    expect(parsed.subject).toBe("Grüße — this week's news");
    expect(built.messageId).toMatch(/^<snd_01abc\.[0-9a-f]{32}@brand\.example>$/);
    expect(built.messageId).toBe(signedMessageId("snd_01abc", "brand.example"));
    expect(parsed.messageId).toBe(built.messageId);
    expect(parsed.date?.toISOString()).toBe("2026-05-04T09:30:00.000Z");
    expect(parsed.text?.trim()).toBe(message.text);
    expect(parsed.html).toContain("Hello Zoë");
    expect(parsed.headerLines.find((h) => h.key === "list-id")?.line).toBe("List-Id: <news.brand.example>");
    expect(built.envelope).toEqual({ from: "news@brand.example", to: "reader@example.com" });
  });

  it("non-ASCII headers are RFC 2047 encoded and every line stays within 998 octets", async () => {
    const built = buildMessage({ ...message, html: `<p>${"long line ".repeat(500)}</p>` }, clock);
    const raw = built.raw.toString("utf8");
    expect(raw).toMatch(/^Subject: =\?UTF-8\?/m);
    expect(raw).toMatch(/^From: =\?UTF-8\?.*<news@brand\.example>$/m);
    for (const line of raw.split("\r\n")) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(998);
  });

  it("subjects and headers never carry CR or LF: no header can be injected", async () => {
    const built = buildMessage(
      { ...message, subject: "Hi\r\nBcc: victim@example.com", headers: { "X-Note": "a\nBcc: other@example.com" } },
      clock,
    );
    const parsed = await simpleParser(built.raw);
    expect(parsed.bcc).toBeUndefined();
    expect(parsed.headers.has("bcc")).toBe(false);
    expect(parsed.subject).toBe("Hi Bcc: victim@example.com");
  });

  it("the text and HTML parts read back exactly as written: trailing spaces, equals signs, dot lines, long lines and non-ASCII", async () => {
    const text = `trailing space \nand tab\t\n=3D stays =3D\n.\n..dots\n${"ä long ".repeat(40)}\nend `;
    const html = `<p style="a:b">=\u00e9 ${"<b>x</b> ".repeat(60)}</p>\n.\n<p>Zoë</p>`;
    const parsed = await simpleParser(buildMessage({ ...message, text, html }, clock).raw);
    expect(parsed.text).toBe(text);
    expect(parsed.html).toBe(html);
  });

  it("a header name cannot carry a colon or whitespace into the message: it cannot start another header", async () => {
    const built = buildMessage({ ...message, headers: { "X-Note: x\r\nBcc": "victim@example.com" } }, clock);
    const parsed = await simpleParser(built.raw);
    expect(parsed.headers.has("bcc")).toBe(false);
    expect(parsed.headers.get("x-notexbcc")).toBe("victim@example.com");
  });

  it("an extra header cannot write one of the message's own fields (From, To, Bcc, Subject…) a second time, and an empty one is left out", async () => {
    const built = buildMessage(
      {
        ...message,
        headers: {
          From: "ceo@bank.example",
          bcc: "x@example.com",
          "Content-Type": "text/plain",
          "X-Empty": " ",
          "List-Id": "<a.example>",
        },
      },
      clock,
    );
    const raw = built.raw.toString("utf8");
    expect(raw.match(/^From:/gim)).toHaveLength(1);
    expect(raw).toMatch(/^From: =\?UTF-8\?.*<news@brand\.example>$/m);
    expect(raw).not.toMatch(/^bcc:/im);
    expect(raw.match(/^Content-Type: multipart/gim)).toHaveLength(1);
    expect(raw).not.toMatch(/^X-Empty/m);
    expect(raw).toMatch(/^List-Id: <a\.example>$/m);
  });
});

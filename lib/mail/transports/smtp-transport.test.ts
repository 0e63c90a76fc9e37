import { generateKeyPairSync } from "node:crypto";
import { createServer, type AddressInfo } from "node:net";
import { eq, sql } from "drizzle-orm";
import { dkimVerify } from "mailauth/lib/dkim/verify";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { workspaces } from "@/lib/db/schema";
import { seedWorkspace } from "@/lib/testing/factories";
import { startSmtpCapture, type SmtpCapture } from "@/lib/testing/smtp-sink";
import { testCtx } from "@/lib/testing/test-context";

import { buildMessage } from "../build-message";
import { sendEach, smtpTransport } from "./smtp-transport";

const { ctx } = testCtx();
let capture: SmtpCapture;

// A real SMTP peer on loopback: it records the envelope and the exact bytes it was given.
beforeAll(async () => {
  capture = await startSmtpCapture();
});
afterAll(() => capture.close());

const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const dkimRecord = `v=DKIM1; k=rsa; p=${publicKey.export({ type: "spki", format: "der" }).toString("base64")}`;

const message = {
  workspaceId: null,
  idempotencyKey: "snd_smtp_1",
  from: { name: "Brand News", address: "news@brand.example" },
  replyTo: "help@brand.example",
  to: "reader@example.com",
  subject: "This week",
  text: "Plain text body",
  html: "<p>HTML body</p>",
  headers: {
    "List-Unsubscribe": "<https://app.example/u/token>",
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    "List-Id": "<news.brand.example>",
  },
};

describe("SMTP transport", () => {
  it("delivers to a real SMTP server: envelope, headers and both parts as built", async () => {
    const transport = smtpTransport({ url: capture.url });
    const { providerMessageId } = await transport.send(ctx, message);
    await transport.close();
    const mail = capture.received.at(-1)!;
    expect(mail.from).toBe("news@brand.example");
    expect(mail.to).toEqual(["reader@example.com"]);
    const parsed = await simpleParser(mail.raw);
    expect(parsed.messageId).toBe(providerMessageId);
    expect(parsed.from?.value[0]).toEqual({ name: "Brand News", address: "news@brand.example" });
    expect(parsed.replyTo?.value[0]?.address).toBe("help@brand.example");
    expect(parsed.text?.trim()).toBe("Plain text body");
    expect(parsed.html).toContain("<p>HTML body</p>");
    expect(parsed.headerLines.find((h) => h.key === "list-unsubscribe-post")?.line).toBe(
      "List-Unsubscribe-Post: List-Unsubscribe=One-Click",
    );
  });

  it("puts on the wire the bytes the builder makes, as the local mailbox stores them", async () => {
    const transport = smtpTransport({ url: capture.url });
    const accented = {
      ...message,
      idempotencyKey: "snd_smtp_bytes",
      from: { name: "Brändé News", address: "news@brand.example" },
      subject: "Ça va? Ünïcödé",
      text: `Zeile ${"ä".repeat(90)}\n.dot`,
      html: "<p>Grüße</p>",
    };
    await transport.send(ctx, accented);
    await transport.close();
    // Only the multipart boundary is random, and SMTP's DATA ends every line with CRLF.
    const boundaryFree = (raw: Buffer) =>
      raw
        .toString("utf8")
        .replace(/--_mail-[0-9a-f-]{36}/g, "--boundary")
        .replace(/\r?\n/g, "\r\n")
        .replace(/\r\n$/, "");
    expect(boundaryFree(capture.received.at(-1)!.raw)).toBe(boundaryFree(buildMessage(accented, ctx.clock).raw));
  });

  it("signs with DKIM when a key is configured, covering the List-Unsubscribe headers, and a real verifier accepts it", async () => {
    const transport = smtpTransport({
      url: capture.url,
      dkim: { domainName: "brand.example", keySelector: "mail", privateKey },
    });
    await transport.send(ctx, { ...message, idempotencyKey: "snd_smtp_2" });
    await transport.close();
    const mail = capture.received.at(-1)!;
    const resolver = async (name: string, type: string) => {
      if (type === "TXT" && name === "mail._domainkey.brand.example") return [[dkimRecord]];
      throw Object.assign(new Error(`no ${type} record for ${name}`), { code: "ENOTFOUND" });
    };
    const result = await dkimVerify(mail.raw, { resolver });
    const signature = result.results[0]!;
    expect(signature.status.result).toBe("pass");
    expect(signature.signingDomain).toBe("brand.example");
    const signedHeaders = (
      signature as unknown as { signingHeaders: { keys: string } }
    ).signingHeaders.keys.toLowerCase();
    expect(signedHeaders).toContain("list-unsubscribe");
    expect(signedHeaders).toContain("list-unsubscribe-post");

    // Tampering with a signed header breaks the signature.
    const tampered = Buffer.from(mail.raw.toString("utf8").replace("Subject: This week", "Subject: Changed!!"));
    expect((await dkimVerify(tampered, { resolver })).results[0]!.status.result).toBe("fail");
  });

  it("sends a batch over pooled connections", async () => {
    const before = capture.received.length;
    const connectionsBefore = capture.connections();
    const transport = smtpTransport({ url: capture.url, maxConnections: 2 });
    const batch = Array.from({ length: 6 }, (_, i) => ({
      ...message,
      idempotencyKey: `snd_batch_${i}`,
      to: `r${i}@example.com`,
    }));
    const sent = await transport.sendBatch(ctx, batch);
    await transport.close();
    expect(sent).toHaveLength(6);
    expect(
      capture.received
        .slice(before)
        .map((m) => m.to[0])
        .sort(),
    ).toEqual(batch.map((m) => m.to).sort());
    expect(capture.connections() - connectionsBefore).toBeLessThanOrEqual(2);
  });

  it("a recipient the server answers 421 is that message's temporary refusal, and its domain's other messages in the batch get the same answer untried; the rest of the batch is sent", async () => {
    const refusing = await startSmtpCapture((address) =>
      address.endsWith("@outlook.com") ? { code: 421, message: "4.7.500 Server busy, try again later" } : null,
    );
    const transport = smtpTransport({ url: refusing.url, maxConnections: 2 });
    const batch = ["a@gmail.com", "b@outlook.com", "c@yahoo.com", "d@outlook.com"].map((to, i) => ({
      ...message,
      idempotencyKey: `snd_refused_${i}`,
      to,
    }));
    const outcomes = await transport.sendBatch(ctx, batch);
    await transport.close();
    await refusing.close();
    expect(outcomes.map((outcome) => ("refused" in outcome ? outcome.refused : "sent"))).toEqual([
      "sent",
      { code: 421, temporary: true, response: expect.stringContaining("Server busy") },
      "sent",
      { code: 421, temporary: true, response: expect.stringContaining("Server busy") },
    ]);
    expect(refusing.received.map((mail) => mail.to[0])).toEqual(expect.arrayContaining(["a@gmail.com", "c@yahoo.com"]));
  });

  it("a message whose connection was lost under it is sent again while others get answers; lost at every pass it is a temporary refusal without an answer; no answer at all fails the batch", async () => {
    const batch = ["a", "b", "c"].map((name) => ({
      ...message,
      idempotencyKey: `snd_lost_${name}`,
      to: `${name}@example.com`,
    }));
    const lostConnection = () => Object.assign(new Error("Connection closed"), { code: "ECONNECTION" });
    const tries = new Map<string, number>();
    const outcomes = await sendEach(
      batch,
      async (one) => {
        tries.set(one.to, (tries.get(one.to) ?? 0) + 1);
        if (one.to === "b@example.com" && tries.get(one.to) === 1) throw lostConnection();
        if (one.to === "c@example.com") throw lostConnection();
        return { providerMessageId: `<${one.idempotencyKey}>` };
      },
      2,
    );
    expect(
      outcomes.map((outcome) => ("refused" in outcome ? outcome.refused.code : outcome.providerMessageId)),
    ).toEqual(["<snd_lost_a>", "<snd_lost_b>", 0]);
    expect(Object.fromEntries(tries)).toEqual({ "a@example.com": 1, "b@example.com": 2, "c@example.com": 3 });
    await expect(
      sendEach(
        batch,
        async () => {
          throw lostConnection();
        },
        2,
      ),
    ).rejects.toThrow("Connection closed");
  });

  it("when the SMTP server goes away mid-batch, every message still queued fails instead of waiting forever", async () => {
    const leaving = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      closeTimeout: 50,
      onData(stream, _session, callback) {
        stream.resume();
        stream.on("end", () => callback());
      },
    });
    await new Promise<void>((resolve) => leaving.listen(0, "127.0.0.1", resolve));
    const transport = smtpTransport({
      url: `smtp://127.0.0.1:${(leaving.server.address() as AddressInfo).port}`,
      maxConnections: 2,
    });
    let delivered = 0;
    // The server shuts down (421 to whoever is connected) once the first few are delivered; the rest find nobody.
    const outcomes = await Promise.allSettled(
      Array.from({ length: 60 }, (_, i) =>
        transport.send(ctx, { ...message, idempotencyKey: `snd_gone_${i}`, to: `g${i}@example.com` }).then(() => {
          if (++delivered === 5) leaving.close();
        }),
      ),
    );
    await transport.close();
    const failed = outcomes.filter((outcome) => outcome.status === "rejected");
    expect(delivered).toBeGreaterThanOrEqual(5);
    expect(delivered + failed.length).toBe(60);
    expect(failed.length).toBeGreaterThan(0);
  });

  it("a server that accepts connections and closes them before greeting fails the messages instead of taking them back forever", async () => {
    const closing = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => closing.listen(0, "127.0.0.1", resolve));
    const transport = smtpTransport({
      url: `smtp://127.0.0.1:${(closing.address() as AddressInfo).port}`,
      maxConnections: 2,
    });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 4 }, (_, i) =>
        transport.send(ctx, { ...message, idempotencyKey: `snd_closed_${i}`, to: `c${i}@example.com` }),
      ),
    );
    await transport.close();
    await new Promise<void>((resolve) => closing.close(() => resolve()));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["rejected", "rejected", "rejected", "rejected"]);
  });

  it("sendAndRecord writes the record once the server has taken the message, and none when the hand-over fails", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const record = sql`update ${workspaces} set name = 'recorded' where id = ${workspaceId}`;
    const nameOf = async () =>
      (await ctx.db.select({ name: workspaces.name }).from(workspaces).where(eq(workspaces.id, workspaceId)))[0]!.name;
    const closing = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => closing.listen(0, "127.0.0.1", resolve));
    const failing = smtpTransport({ url: `smtp://127.0.0.1:${(closing.address() as AddressInfo).port}` });
    await expect(failing.sendAndRecord(ctx, { ...message, idempotencyKey: "snd_record_1" }, record)).rejects.toThrow();
    await failing.close();
    await new Promise<void>((resolve) => closing.close(() => resolve()));
    expect(await nameOf()).not.toBe("recorded");

    const transport = smtpTransport({ url: capture.url });
    const { providerMessageId } = await transport.sendAndRecord(
      ctx,
      { ...message, idempotencyKey: "snd_record_2" },
      record,
    );
    await transport.close();
    expect((await simpleParser(capture.received.at(-1)!.raw)).messageId).toBe(providerMessageId);
    expect(await nameOf()).toBe("recorded");
  });
});

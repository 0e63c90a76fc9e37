import { generateKeyPairSync } from "node:crypto";
import { eq } from "drizzle-orm";
import { dkimVerify } from "mailauth/lib/dkim/verify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { buildBatch } from "@/lib/campaigns/build-batch";
import { campaigns, mailMessages, sends } from "@/lib/db/schema";
import { seedAcceptedSend } from "@/lib/testing/campaign-fixture";
import { startSmtpCapture, type SmtpCapture } from "@/lib/testing/smtp-sink";
import { testCtx } from "@/lib/testing/test-context";

import { feedbackId, feedbackSenderId } from "./feedback-id";
import { sendServiceMail } from "./send-service-mail";
import { smtpTransport } from "./transports/smtp-transport";

const { ctx } = testCtx();
let capture: SmtpCapture;
beforeAll(async () => {
  capture = await startSmtpCapture();
});
afterAll(() => capture.close());

const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const dkimRecord = `v=DKIM1; k=rsa; p=${publicKey.export({ type: "spki", format: "der" }).toString("base64")}`;
const resolver = async (name: string, type: string) => {
  if (type === "TXT" && name === "ms2026._domainkey.brand.example") return [[dkimRecord]];
  throw Object.assign(new Error(`no ${type} record for ${name}`), { code: "ENOTFOUND" });
};

describe("Feedback-ID", () => {
  it("is campaign:brand:workspace:SenderId, SenderId being APP_URL's host, and no colon or space gets inside a field", () => {
    const config = { APP_URL: "https://mail.service.example:8443/app" };
    expect(feedbackSenderId(config)).toBe("mail.service.example");
    expect(feedbackId({ stream: "cmp_01", brandId: "brd_02", workspaceId: "ws_03" }, config)).toBe(
      "cmp_01:brd_02:ws_03:mail.service.example",
    );
    expect(feedbackId({ stream: "a:b c", brandId: null, workspaceId: null }, config)).toBe(
      "abc:service:service:mail.service.example",
    );
    expect(feedbackId({ stream: "x".repeat(200), brandId: "b", workspaceId: "w" }, config).split(":")[0]).toHaveLength(
      64,
    );
  });

  it("a campaign mail carries Feedback-ID (campaign, brand, workspace) and its DKIM signature covers it", async () => {
    const { campaignId, send, workspaceId } = await seedAcceptedSend(ctx, "fbl-reader@example.com");
    const [campaign] = await ctx.db.select().from(campaigns).where(eq(campaigns.id, campaignId));
    const [row] = await ctx.db.select().from(sends).where(eq(sends.id, send.id));
    const { messages } = await buildBatch(ctx, campaign!, [
      { id: row!.id, contact_id: row!.contactId, email: row!.email },
    ] as never);
    const expected = `${campaignId}:${campaign!.brandId}:${workspaceId}:${feedbackSenderId()}`;
    expect(messages[0]!.headers?.["Feedback-ID"]).toBe(expected);

    // Signed as a ready domain's mail is: with the message's own key.
    const transport = smtpTransport({ url: capture.url });
    await transport.send(ctx, {
      ...messages[0]!,
      from: { name: "Brand", address: "news@brand.example" },
      dkim: { domainName: "brand.example", keySelector: "ms2026", privateKey },
    });
    await transport.close();
    const raw = capture.received.at(-1)!.raw;
    expect(raw.toString("utf8").replace(/\r\n\s+/g, " ")).toContain(`Feedback-ID: ${expected}`);

    const signatureHeader = /^DKIM-Signature:((?:.*)(?:\r\n[ \t].*)*)/m.exec(raw.toString("utf8"))![1]!;
    const signedFields = /\bh=([^;]+)/.exec(signatureHeader.replace(/\s+/g, ""))![1]!.toLowerCase().split(":");
    expect(signedFields).toContain("feedback-id");

    const result = await dkimVerify(raw, { resolver });
    expect(result.results[0]).toMatchObject({ signingDomain: "brand.example", status: { result: "pass" } });
    const forged = Buffer.from(raw.toString("utf8").replace(`:${workspaceId}:`, ":ws_someone_else:"));
    expect((await dkimVerify(forged, { resolver })).results[0]!.status.result).toBe("fail");
  });

  it("the service's own mail carries its kind, `service` in the brand's place, and the workspace it is about", async () => {
    const { workspaceId } = await seedAcceptedSend(ctx, "fbl-invited@example.com");
    await sendServiceMail(ctx, {
      kind: "invitation",
      workspaceId,
      to: "fbl-invited@example.com",
      subject: "Join",
      paragraphs: ["You are invited."],
      idempotencyKey: `fbl-invitation-${workspaceId}`,
    });
    const [stored] = await ctx.db
      .select({ raw: mailMessages.raw })
      .from(mailMessages)
      .where(eq(mailMessages.idempotencyKey, `fbl-invitation-${workspaceId}`));
    expect(stored!.raw.replace(/\r\n\s+/g, " ")).toContain(
      `Feedback-ID: invitation:service:${workspaceId}:${feedbackSenderId()}`,
    );
  });
});

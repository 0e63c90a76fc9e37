import { generateKeyPairSync } from "node:crypto";
import { dkimVerify } from "mailauth/lib/dkim/verify";
import { describe, expect, it } from "vitest";

import { parseEnv } from "@/lib/env";
import { startSmtpCapture } from "@/lib/testing/smtp-sink";
import { testCtx } from "@/lib/testing/test-context";

import { createMailTransport } from "./get-mail-transport";

const { ctx } = testCtx();

describe("mail transport selection", () => {
  it("local is the default; smtp and resend are chosen by MAIL_TRANSPORT", async () => {
    expect(createMailTransport(parseEnv({})).name).toBe("local");
    const smtp = createMailTransport(parseEnv({ MAIL_TRANSPORT: "smtp", SMTP_URL: "smtp://user:pass@127.0.0.1:2525" }));
    expect(smtp.name).toBe("smtp");
    await smtp.close();
    expect(createMailTransport(parseEnv({ MAIL_TRANSPORT: "resend", RESEND_API_KEY: "re_x" })).name).toBe("resend");
  });

  it("smtp signs with the configured DKIM key, given as PEM with its newlines written as \\n, as one-line environments need", async () => {
    const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const carrier = await startSmtpCapture();
    const smtp = createMailTransport(
      parseEnv({
        MAIL_TRANSPORT: "smtp",
        SMTP_URL: carrier.url,
        DKIM_DOMAIN: "brand.example",
        DKIM_SELECTOR: "s2026",
        DKIM_PRIVATE_KEY: pem.replace(/\n/g, "\\n"),
      }),
    );
    expect(smtp.name).toBe("smtp");
    await smtp.send(ctx, {
      workspaceId: null,
      idempotencyKey: "snd_configured_key",
      from: { name: "Brand", address: "news@brand.example" },
      to: "reader@example.com",
      subject: "Hi",
      text: "Hi",
      html: "<p>Hi</p>",
    });
    await smtp.close();
    await carrier.close();
    const record = `v=DKIM1; k=rsa; p=${publicKey.export({ type: "spki", format: "der" }).toString("base64")}`;
    const resolver = async (name: string, type: string) => {
      if (type === "TXT" && name === "s2026._domainkey.brand.example") return [[record]];
      throw Object.assign(new Error(`no ${type} record for ${name}`), { code: "ENOTFOUND" });
    };
    const [signature] = (await dkimVerify(carrier.received[0]!.raw, { resolver })).results;
    expect(signature).toMatchObject({ signingDomain: "brand.example", selector: "s2026", status: { result: "pass" } });
  });

  it("a transport without its settings, or an unknown one, fails at start with a clear message", () => {
    expect(() => createMailTransport(parseEnv({ MAIL_TRANSPORT: "smtp" }))).toThrow(
      "MAIL_TRANSPORT=smtp needs SMTP_URL",
    );
    expect(() => createMailTransport(parseEnv({ MAIL_TRANSPORT: "resend" }))).toThrow(
      "MAIL_TRANSPORT=resend needs RESEND_API_KEY",
    );
    expect(() => createMailTransport(parseEnv({ MAIL_TRANSPORT: "carrier-pigeon" }))).toThrow(
      "MAIL_TRANSPORT must be local, smtp or resend",
    );
    expect(() => createMailTransport(parseEnv({ MAIL_TRANSPORT: "smtp", SMTP_URL: "http://x" }))).toThrow(
      "smtp:// or smtps://",
    );
    expect(() =>
      createMailTransport(
        parseEnv({
          MAIL_TRANSPORT: "smtp",
          SMTP_URL: "smtp://127.0.0.1:2525",
          DKIM_DOMAIN: "brand.example",
          DKIM_PRIVATE_KEY: "not a key",
        }),
      ),
    ).toThrow("DKIM_PRIVATE_KEY must be an RSA private key in PEM");
    const ecKey = generateKeyPairSync("ec", { namedCurve: "P-256" })
      .privateKey.export({ type: "pkcs8", format: "pem" })
      .toString();
    expect(() =>
      createMailTransport(
        parseEnv({
          MAIL_TRANSPORT: "smtp",
          SMTP_URL: "smtp://127.0.0.1:2525",
          DKIM_DOMAIN: "brand.example",
          DKIM_PRIVATE_KEY: ecKey,
        }),
      ),
    ).toThrow("DKIM_PRIVATE_KEY must be an RSA private key in PEM");
  });
});

import { createPrivateKey, type KeyObject } from "node:crypto";

import { env, type Env } from "@/lib/env";

import { mailTransportName } from "./mailbox-enabled";
import { localTransport } from "./transports/local-transport";
import type { MailTransport } from "./transports/mail-transport";
import { resendTransport } from "./transports/resend-transport";
import { smtpTransport } from "./transports/smtp-transport";

const globalForMail = globalThis as unknown as { __mailTransport?: MailTransport };

/** The transport MAIL_TRANSPORT names (unset: `local`, with a warning at a production start), made once per process. */
export function getMailTransport(config: Env = env()): MailTransport {
  globalForMail.__mailTransport ??= createMailTransport(config);
  return globalForMail.__mailTransport;
}

export function createMailTransport(config: Env): MailTransport {
  const name = mailTransportName(config);
  switch (name) {
    case "local":
      return localTransport();
    case "smtp": {
      if (!config.SMTP_URL) throw new Error("MAIL_TRANSPORT=smtp needs SMTP_URL");
      const dkim =
        config.DKIM_PRIVATE_KEY && config.DKIM_DOMAIN
          ? {
              domainName: config.DKIM_DOMAIN,
              keySelector: config.DKIM_SELECTOR,
              privateKey: dkimPrivateKey(config.DKIM_PRIVATE_KEY),
            }
          : undefined;
      return smtpTransport({
        url: config.SMTP_URL,
        maxConnections: config.SMTP_POOL_SIZE,
        dkim,
        bounceDomain: config.BOUNCE_DOMAIN,
      });
    }
    case "resend":
      if (!config.RESEND_API_KEY) throw new Error("MAIL_TRANSPORT=resend needs RESEND_API_KEY");
      return resendTransport(config.RESEND_API_KEY);
  }
}

/**
 * The configured key, parsed once: nodemailer signs rsa-sha256 only, and a key it cannot sign with
 * would send every message unsigned (or, an EC key, with a signature no receiver accepts).
 */
function dkimPrivateKey(pem: string): KeyObject {
  const key = parsedPrivateKey(pem.replace(/\\n/g, "\n"));
  if (key?.asymmetricKeyType !== "rsa")
    throw new Error("DKIM_PRIVATE_KEY must be an RSA private key in PEM (newlines may be written as \\n)");
  return key;
}

function parsedPrivateKey(pem: string): KeyObject | null {
  try {
    return createPrivateKey(pem);
  } catch {
    return null;
  }
}

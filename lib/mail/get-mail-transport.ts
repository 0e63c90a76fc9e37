import { mailTransportName } from "./mailbox-enabled";
import { localTransport } from "./transports/local-transport";
import type { MailTransport } from "./transports/mail-transport";
import { resendTransport } from "./transports/resend-transport";
import { smtpTransport } from "./transports/smtp-transport";

const globalForMail = globalThis as unknown as { __mailTransport?: MailTransport };

/** The transport MAIL_TRANSPORT names (unset: `local`, with a warning at a production start), made once per process. */
export function getMailTransport(env: Partial<Record<string, string>> = process.env): MailTransport {
  globalForMail.__mailTransport ??= createMailTransport(env);
  return globalForMail.__mailTransport;
}

export function createMailTransport(env: Partial<Record<string, string>>): MailTransport {
  const name = mailTransportName(env);
  switch (name) {
    case "local":
      return localTransport();
    case "smtp": {
      if (!env.SMTP_URL) throw new Error("MAIL_TRANSPORT=smtp needs SMTP_URL");
      const dkim =
        env.DKIM_PRIVATE_KEY && env.DKIM_DOMAIN ? { domainName: env.DKIM_DOMAIN, keySelector: env.DKIM_SELECTOR || "mail", privateKey: env.DKIM_PRIVATE_KEY.replace(/\\n/g, "\n") } : undefined;
      return smtpTransport({ url: env.SMTP_URL, maxConnections: Number(env.SMTP_POOL_SIZE || 5), dkim, bounceDomain: env.BOUNCE_DOMAIN || undefined });
    }
    case "resend":
      if (!env.RESEND_API_KEY) throw new Error("MAIL_TRANSPORT=resend needs RESEND_API_KEY");
      return resendTransport(env.RESEND_API_KEY);
    default:
      throw new Error(`MAIL_TRANSPORT must be local, smtp or resend, not "${name}"`);
  }
}

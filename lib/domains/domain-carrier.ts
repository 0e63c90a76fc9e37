import "server-only";

import { Resend } from "resend";

import { env, type Env } from "@/lib/env";
import { mailTransportName } from "@/lib/mail/mailbox-enabled";

import type { ExpectedRecord } from "./domain-records";

export interface Registration {
  /** registered: the carrier will send for the domain; pending: it accepted the domain and is still checking. */
  status: "registered" | "pending";
  carrierDomainId?: string;
  /** Records the carrier asks the sender to publish (Resend's SPF and DKIM). */
  records?: ExpectedRecord[];
}

/**
 * Registration of a sending domain with the mail carrier, a step of its own
 * that can fail after DNS verification. With SMTP (and the local mailbox) we
 * sign with the domain's own DKIM key: the key is the registration. With
 * Resend the domain is created (once) through Resend's API, verification is
 * asked for and its status read back.
 */
export interface DomainCarrier {
  name: string;
  register(domain: { hostname: string; carrierDomainId: string | null }): Promise<Registration>;
}

export function domainCarrier(config: Pick<Env, "MAIL_TRANSPORT" | "RESEND_API_KEY"> = env()): DomainCarrier {
  const name = mailTransportName(config);
  if (name !== "resend") return { name, register: async () => ({ status: "registered" }) };
  if (!config.RESEND_API_KEY) throw new Error("MAIL_TRANSPORT=resend needs RESEND_API_KEY");
  return resendDomains(new Resend(config.RESEND_API_KEY));
}

function resendDomains(resend: Resend): DomainCarrier {
  const fail = (what: string, error: { message: string } | null) =>
    new Error(`Resend ${what}: ${error?.message ?? "no answer"}`);
  return {
    name: "resend",
    async register(domain) {
      let id = domain.carrierDomainId;
      if (!id) {
        const created = await resend.domains.create({ name: domain.hostname });
        if (created.error || !created.data) throw fail("refused the domain", created.error);
        id = created.data.id;
      }
      const verify = await resend.domains.verify(id);
      if (verify.error) throw fail("could not verify the domain", verify.error);
      const read = await resend.domains.get(id);
      if (read.error || !read.data) throw fail("could not read the domain", read.error);
      if (read.data.status === "failed")
        throw new Error("Resend could not verify the domain's records. Check them, then re-sync.");
      const records: ExpectedRecord[] = read.data.records
        .filter((record) => record.record === "SPF" || record.record === "DKIM")
        .map((record) => ({
          kind: record.record === "SPF" ? "return_path" : "dkim",
          type: record.type as ExpectedRecord["type"],
          name: record.name.includes(domain.hostname) ? record.name : `${record.name}.${domain.hostname}`,
          value: record.value,
          ...(record.priority !== undefined ? { priority: record.priority } : {}),
          required: true,
        }));
      return { status: read.data.status === "verified" ? "registered" : "pending", carrierDomainId: id, records };
    },
  };
}

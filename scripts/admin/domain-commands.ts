import { systemActor } from "@/lib/actor";
import {
  addSendingDomain,
  checkSendingDomain,
  getSendingDomainOrThrow,
  type SendingDomain,
} from "@/lib/domains/sending-domains";

import { str, string, type AdminCommand } from "./admin-command";

function domainJson(domain: SendingDomain) {
  return {
    domain_id: domain.id,
    hostname: domain.hostname,
    state: domain.state,
    carrier_status: domain.carrierStatus,
    carrier_error: domain.carrierError,
    records: domain.records.map((record) => ({
      type: record.type,
      name: record.name,
      value: record.value,
      required: record.required,
      status: record.status,
      found: record.found,
    })),
  };
}

/** Sending domains: added for a brand, and their DNS records checked. */
export const domainCommands: Record<string, AdminCommand> = {
  "domain:add": {
    summary: "--workspace ID --brand ID --hostname H   (a sending domain for the brand; prints the records to publish)",
    options: { workspace: string, brand: string, hostname: string },
    required: ["workspace", "brand", "hostname"],
    run: async (ctx, v) => {
      const actor = systemActor("admin-cli", str(v, "workspace"));
      const { domainId } = await addSendingDomain(ctx, actor, {
        brandId: str(v, "brand"),
        hostname: str(v, "hostname"),
      });
      return domainJson(await getSendingDomainOrThrow(ctx, actor, domainId));
    },
  },
  "domain:check": {
    summary: "--domain ID [--resync]   (look the records up now; --resync repeats the carrier registration)",
    options: { domain: string, resync: { type: "boolean" } },
    required: ["domain"],
    run: async (ctx, v) =>
      domainJson(
        await checkSendingDomain(
          ctx,
          systemActor("admin-cli"),
          str(v, "domain"),
          {},
          { reregister: v.resync === true },
        ),
      ),
  },
};

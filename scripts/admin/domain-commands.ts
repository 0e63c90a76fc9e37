import { systemActor } from "@/lib/actor";
import { judgeAlignment, type AlignmentCheck } from "@/lib/domains/dmarc-alignment";
import {
  addSendingDomain,
  checkSendingDomain,
  getSendingDomainOrThrow,
  type SendingDomain,
} from "@/lib/domains/sending-domains";
import { sendingIdentity } from "@/lib/domains/sending-identity";
import { setDomainWarmUp, showDomainWarmUp, type DomainWarmUp } from "@/lib/domains/warm-up-settings";
import { validationFailed } from "@/lib/errors";

import { str, string, type AdminCommand } from "./admin-command";

const checkJson = (check: AlignmentCheck) => ({
  status: check.status,
  summary: check.summary,
  advice: check.advice,
});

function domainJson(domain: SendingDomain) {
  const alignment = judgeAlignment(domain.hostname, domain.dmarcLookup, sendingIdentity(domain));
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
    // DMARC alignment as the domain page shows it (lib/domains/dmarc-alignment.ts).
    alignment: {
      dmarc_passes: alignment.dmarcPasses,
      dmarc_record: domain.dmarcLookup?.record ?? null,
      policy: checkJson(alignment.policy),
      dkim: { mode: alignment.dkim.mode, ...checkJson(alignment.dkim) },
      spf: { mode: alignment.spf.mode, ...checkJson(alignment.spf) },
    },
  };
}

function warmUpJson(domainId: string, warmUp: DomainWarmUp) {
  return {
    domain_id: domainId,
    warm_up: warmUp.enabled,
    stage: warmUp.stage + 1,
    stages: warmUp.stages,
    cap_today: warmUp.cap,
    used_today: warmUp.used,
    next_cap: warmUp.nextCap,
    done: warmUp.done,
  };
}

/** Sending domains: added for a brand, their DNS records checked, and their warm-up shown or set. */
export const domainCommands: Record<string, AdminCommand> = {
  "domain:add": {
    summary:
      "--workspace ID --brand ID --hostname H   (a sending domain for the brand; prints the records to publish and its DMARC alignment)",
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
    summary: "--domain ID [--resync]   (look the records and DMARC up now; --resync repeats the carrier registration)",
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
  "domain:warm-up": {
    summary: "--domain ID [--on | --off]   (the domain's warm-up: stage, today's cap and use; --on/--off sets it)",
    options: { domain: string, on: { type: "boolean" }, off: { type: "boolean" } },
    required: ["domain"],
    run: async (ctx, v) => {
      const actor = systemActor("admin-cli");
      const domainId = str(v, "domain");
      if (v.on === true && v.off === true) throw validationFailed("on", "on: give --on or --off, not both.");
      const warmUp =
        v.on === true || v.off === true
          ? await setDomainWarmUp(ctx, actor, { domainId, enabled: v.on === true })
          : await showDomainWarmUp(ctx, actor, domainId);
      return warmUpJson(domainId, warmUp);
    },
  },
};

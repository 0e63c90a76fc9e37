"use server";

import { z } from "zod";

import { workspaceAction } from "@/lib/dashboard/workspace-action";
import { addSendingDomain, checkSendingDomain } from "@/lib/domains/sending-domains";
import { domainWarmUpInputSchema, setDomainWarmUp } from "@/lib/domains/warm-up-settings";

export const addDomainAction = workspaceAction(
  z.strictObject({
    brandId: z.string().min(1, "choose a brand"),
    hostname: z.string().trim().min(1, "enter a domain"),
  }),
  ({ ctx, actor }, input) => addSendingDomain(ctx, actor, input),
);

/** Looks the records up now; `resync` also repeats the registration with the carrier. `waiting`: required records not found yet. */
export const checkDomainAction = workspaceAction(
  z.strictObject({ domainId: z.string(), resync: z.boolean() }),
  async ({ ctx, actor }, { domainId, resync }) => {
    const domain = await checkSendingDomain(ctx, actor, domainId, {}, { reregister: resync });
    return {
      state: domain.state,
      waiting: domain.records.filter((record) => record.required && record.status !== "found").length,
    };
  },
);

/** Turns the domain's warm-up on or off. */
export const setDomainWarmUpAction = workspaceAction(domainWarmUpInputSchema, ({ ctx, actor }, input) =>
  setDomainWarmUp(ctx, actor, input),
);

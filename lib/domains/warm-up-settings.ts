import "server-only";

import { and, eq } from "drizzle-orm";
import { z } from "zod";

import { inActorWorkspace, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { sendingDomains } from "@/lib/db/schema";

import { warmUpToday } from "./domain-warm-up";
import { getSendingDomainOrThrow } from "./sending-domains";
import { LAST_WARM_UP_STAGE, WARM_UP_SCHEDULE, warmUpCapOf } from "./warm-up-schedule";

/** A domain's warm-up as its page and the CLI show it. */
export interface DomainWarmUp {
  enabled: boolean;
  /** Index into WARM_UP_SCHEDULE, counted from 0. */
  stage: number;
  stages: number;
  /** Today's cap; null when there is none (warm-up off, or the schedule done). */
  cap: number | null;
  /** Sends the domain's campaigns claimed today (UTC), while warm-up is on. */
  used: number;
  /** The cap of the next stage, reached after a day that sends and holds the rates; null when that is no cap. */
  nextCap: number | null;
  done: boolean;
}

export async function showDomainWarmUp(ctx: Ctx, actor: Actor, domainId: string): Promise<DomainWarmUp> {
  const domain = await getSendingDomainOrThrow(ctx, actor, domainId);
  const today = await warmUpToday(ctx, domain);
  const done = today.stage >= LAST_WARM_UP_STAGE;
  return {
    enabled: domain.warmUp,
    stage: today.stage,
    stages: WARM_UP_SCHEDULE.length,
    cap: domain.warmUp ? today.cap : null,
    used: domain.warmUp ? today.used : 0,
    nextCap: done ? null : warmUpCapOf(today.stage + 1),
    done,
  };
}

export const domainWarmUpInputSchema = z.strictObject({ domainId: z.string().min(1), enabled: z.boolean() });

/**
 * Turns a domain's warm-up on or off. Off, its campaigns send without a daily cap; on again, the
 * schedule goes on from the stage its sending days reached (a domain never warmed starts at the first).
 */
export async function setDomainWarmUp(
  ctx: Ctx,
  actor: Actor,
  input: z.infer<typeof domainWarmUpInputSchema>,
): Promise<DomainWarmUp> {
  const domain = await getSendingDomainOrThrow(ctx, actor, input.domainId);
  await ctx.db
    .update(sendingDomains)
    .set({ warmUp: input.enabled })
    .where(and(eq(sendingDomains.id, domain.id), inActorWorkspace(actor, sendingDomains.workspaceId)));
  return showDomainWarmUp(ctx, actor, domain.id);
}

import "server-only";

import { desc, eq } from "drizzle-orm";

import { requireActorWorkspace, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { billingInvoices, workspaceBilling, type BillingStage } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";

import { ladderClock } from "./advance-ladder";
import { ladderElapsedMs, ladderSteps, stepDate } from "./ladder-schedule";
import { ladderLengths } from "./plan-defaults";
import { findPlan } from "./plans";

export type Invoice = typeof billingInvoices.$inferSelect;

export interface BillingOverview {
  workspaceId: string;
  stage: BillingStage;
  stageEnteredAt: Date;
  provider: "manual" | "stripe";
  currency: string;
  plan: { id: string; name: string } | null;
  /** A move up Stripe reported that applies once its invoice is paid while the subscription is active. */
  pendingPlan: { id: string; name: string; sendAllowance: number } | null;
  trialEndsAt: Date | null;
  sendAllowance: number;
  sendsUsed: number;
  periodStartedAt: Date;
  paidThrough: Date | null;
  cancelAtPeriodEnd: boolean;
  clockPausedSince: Date | null;
  /** The stages still ahead of the episode under way, with their dates were the clock to run from now. */
  upcoming: { stage: BillingStage; at: Date }[];
  invoices: Invoice[];
}

/** Where a workspace stands on the billing ladder, what comes next and when, and its invoices. */
export async function getBillingOrThrow(ctx: Ctx, actor: Actor): Promise<BillingOverview> {
  const workspaceId = requireActorWorkspace(actor);
  const standing = await getBillingStanding(ctx, actor);
  if (!standing) throw notFound("workspace_not_found", `No workspace ${workspaceId}.`, "workspace");
  const invoices = await ctx.db
    .select()
    .from(billingInvoices)
    .where(eq(billingInvoices.workspaceId, workspaceId))
    .orderBy(desc(billingInvoices.createdAt), desc(billingInvoices.id));
  return { ...standing, invoices };
}

/** The same without the invoices, for the banner every screen of the workspace shows. */
export async function getBillingStanding(ctx: Ctx, actor: Actor): Promise<Omit<BillingOverview, "invoices"> | null> {
  const workspaceId = requireActorWorkspace(actor);
  const [billing] = await ctx.db.select().from(workspaceBilling).where(eq(workspaceBilling.workspaceId, workspaceId));
  if (!billing) return null;
  const now = ctx.clock.now();
  let upcoming: BillingOverview["upcoming"] = [];
  if (billing.ladderCause && billing.ladderStartsAt) {
    const clock = ladderClock(billing);
    const elapsed = ladderElapsedMs(clock, now);
    upcoming = ladderSteps(billing.ladderCause, ladderLengths())
      .filter((step) => step.stage && step.offsetMs > elapsed)
      .map((step) => ({ stage: step.stage!, at: stepDate(clock, step, now) }));
  }
  const plan = findPlan(billing.plan);
  const pendingPlan = findPlan(billing.pendingPlan);
  return {
    workspaceId,
    stage: billing.stage,
    stageEnteredAt: billing.stageEnteredAt,
    provider: billing.provider,
    currency: billing.currency,
    plan: plan ? { id: plan.id, name: plan.name } : null,
    pendingPlan: pendingPlan
      ? { id: pendingPlan.id, name: pendingPlan.name, sendAllowance: pendingPlan.sendAllowance }
      : null,
    trialEndsAt: billing.trialEndsAt,
    sendAllowance: billing.sendAllowance,
    sendsUsed: billing.sendsUsed,
    periodStartedAt: billing.periodStartedAt,
    paidThrough: billing.paidThrough,
    cancelAtPeriodEnd: billing.cancelAtPeriodEnd,
    clockPausedSince: billing.conversationOpenSince,
    upcoming,
  };
}

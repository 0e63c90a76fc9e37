import "server-only";

import { and, eq, sql } from "drizzle-orm";

import { requireActorWorkspace, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { providerPaces } from "@/lib/db/schema";
import { MAILBOX_PROVIDERS, PROVIDER_LABELS, type MailboxProvider } from "@/lib/deliverability/mailbox-provider";
import { MAX_RATE_PER_MINUTE } from "@/lib/deliverability/provider-pace-schemas";
import { validationFailed } from "@/lib/errors";

/**
 * Sends per minute each mailbox provider gets from one workspace unless it chooses otherwise: what a
 * sender with a good reputation may hand Gmail, Microsoft, Yahoo and Apple without being told to
 * slow down. `other` is many small providers together, so it goes fastest.
 */
export const DEFAULT_RATES: Record<MailboxProvider, number> = {
  gmail: 3000,
  microsoft: 1200,
  yahoo: 1800,
  apple: 1200,
  other: 6000,
};
/** Each batch in which a provider refuses halves its rate, down to this share of it. */
export const MIN_SLOWDOWN = 1 / 16;
/** A slowed provider's rate doubles back every this many minutes without a refusal, up to its full rate. */
export const RECOVERY_MINUTES = 10;

type PaceRow = typeof providerPaces.$inferSelect;

/** The share of its rate a provider gets at `now`: halved by each refusing batch, doubling back with time. */
export function slowdownAt(row: Pick<PaceRow, "slowdown" | "refusedAt"> | undefined, now: Date): number {
  if (!row?.refusedAt) return 1;
  const minutes = Math.max(0, now.getTime() - row.refusedAt.getTime()) / 60_000;
  return Math.min(1, row.slowdown * 2 ** (minutes / RECOVERY_MINUTES));
}

/** Sends per minute the provider gets at `now`: the workspace's rate or the default, slowed by refusals. */
export function rateAt(provider: MailboxProvider, row: PaceRow | undefined, now: Date): number {
  return (row?.ratePerMinute ?? DEFAULT_RATES[provider]) * slowdownAt(row, now);
}

/**
 * A workspace's buckets for one claim. Each provider holds up to a minute's worth of sends at its
 * current rate (a quiet provider may take that much at once), refilled as time passes.
 */
export interface Allowances {
  workspaceId: string;
  now: Date;
  tokens: Record<MailboxProvider, number>;
  rates: Record<MailboxProvider, number>;
}

/**
 * Internal: the workspace's pace rows locked for the claim (rows missing are made first), refilled up
 * to `now`. Two claims of one workspace's campaigns take turns, so they share one budget.
 */
export async function takeAllowances(ctx: Ctx, workspaceId: string, now: Date): Promise<Allowances> {
  const lock = () =>
    ctx.db.select().from(providerPaces).where(eq(providerPaces.workspaceId, workspaceId)).for("update");
  let rows = await lock();
  if (rows.length < MAILBOX_PROVIDERS.length) {
    await ctx.db
      .insert(providerPaces)
      .values(MAILBOX_PROVIDERS.map((provider) => ({ workspaceId, provider })))
      .onConflictDoNothing();
    rows = await lock();
  }
  const byProvider = new Map(rows.map((row) => [row.provider, row]));
  const tokens = {} as Record<MailboxProvider, number>;
  const rates = {} as Record<MailboxProvider, number>;
  for (const provider of MAILBOX_PROVIDERS) {
    const row = byProvider.get(provider);
    const rate = rateAt(provider, row, now);
    const elapsed = row?.refilledAt ? Math.max(0, now.getTime() - row.refilledAt.getTime()) / 60_000 : Infinity;
    rates[provider] = rate;
    tokens[provider] = Math.min(rate, (row?.tokens ?? rate) + rate * elapsed);
  }
  return { workspaceId, now, tokens, rates };
}

/** Internal: what the claim took, out of the buckets. */
export async function spendAllowances(
  ctx: Ctx,
  allowances: Allowances,
  taken: Partial<Record<MailboxProvider, number>>,
): Promise<void> {
  const rows = MAILBOX_PROVIDERS.map((provider) => ({
    provider,
    tokens: Math.max(0, allowances.tokens[provider] - (taken[provider] ?? 0)),
  }));
  await ctx.db.execute(sql`
    update ${providerPaces} set tokens = v.tokens, refilled_at = ${allowances.now.toISOString()}::timestamptz
    from json_to_recordset(${JSON.stringify(rows)}::json) as v(provider text, tokens real)
    where ${providerPaces.workspaceId} = ${allowances.workspaceId} and ${providerPaces.provider} = v.provider`);
}

/**
 * The fewest sends a claim takes of a provider at once: ten seconds' worth at its rate, at most a
 * batch. A provider paced below the batch rate is then sent to in steps of ten seconds, not in a
 * trickle of one-send batches as its bucket refills.
 */
export function claimStep(allowances: Allowances, provider: MailboxProvider, batchSize: number): number {
  return Math.max(1, Math.min(batchSize, Math.ceil((allowances.rates[provider] * STEP_SECONDS) / 60)));
}
const STEP_SECONDS = 10;

/** When a provider whose sends wait for its bucket may go on: once it holds a step's worth. */
export function refilledAt(allowances: Allowances, provider: MailboxProvider, batchSize: number): Date {
  const rate = allowances.rates[provider];
  const missing = Math.max(0, claimStep(allowances, provider, batchSize) - allowances.tokens[provider]);
  const minutes = rate > 0 ? missing / rate : RECOVERY_MINUTES;
  return new Date(allowances.now.getTime() + Math.ceil(minutes * 60_000));
}

/**
 * Internal: a batch met `count` temporary refusals from `provider`: its rate halves (from what it was
 * at that moment, so a provider refusing batch after batch keeps slowing), down to MIN_SLOWDOWN, and
 * its bucket keeps no more than a minute's worth at the new rate.
 */
export async function slowProvider(
  ctx: Ctx,
  workspaceId: string,
  provider: MailboxProvider,
  count: number,
  now: Date,
): Promise<void> {
  const [row] = await ctx.db
    .select()
    .from(providerPaces)
    .where(and(eq(providerPaces.workspaceId, workspaceId), eq(providerPaces.provider, provider)))
    .for("update");
  const slowdown = Math.max(MIN_SLOWDOWN, slowdownAt(row, now) / 2);
  const rate = (row?.ratePerMinute ?? DEFAULT_RATES[provider]) * slowdown;
  await ctx.db
    .insert(providerPaces)
    .values({ workspaceId, provider, slowdown, refusedAt: now, refusals: count, tokens: 0, refilledAt: now })
    .onConflictDoUpdate({
      target: [providerPaces.workspaceId, providerPaces.provider],
      set: {
        slowdown,
        refusedAt: now,
        refusals: sql`${providerPaces.refusals} + ${count}`,
        tokens: sql`least(coalesce(${providerPaces.tokens}, ${rate}), ${rate})`,
        updatedAt: now,
      },
    });
}

export interface ProviderPace {
  provider: MailboxProvider;
  label: string;
  defaultRate: number;
  /** The workspace's own rate, or null for the default. */
  chosenRate: number | null;
  /** The rate at this moment, after any slowdown. */
  currentRate: number;
  slowed: boolean;
  refusals: number;
  refusedAt: Date | null;
}

/** The workspace's pace at each provider, for the deliverability settings. */
export async function listProviderPaces(ctx: Ctx, actor: Actor): Promise<ProviderPace[]> {
  const workspaceId = requireActorWorkspace(actor);
  const rows = await ctx.db.select().from(providerPaces).where(eq(providerPaces.workspaceId, workspaceId));
  const byProvider = new Map(rows.map((row) => [row.provider, row]));
  const now = ctx.clock.now();
  return MAILBOX_PROVIDERS.map((provider) => {
    const row = byProvider.get(provider);
    return {
      provider,
      label: PROVIDER_LABELS[provider],
      defaultRate: DEFAULT_RATES[provider],
      chosenRate: row?.ratePerMinute ?? null,
      currentRate: Math.round(rateAt(provider, row, now)),
      slowed: slowdownAt(row, now) < 1,
      refusals: row?.refusals ?? 0,
      refusedAt: row?.refusedAt ?? null,
    };
  });
}

/** Sets the workspace's rate at one provider in sends per minute; null goes back to the default. */
export async function setProviderRate(
  ctx: Ctx,
  actor: Actor,
  input: { provider: string; ratePerMinute: number | null },
): Promise<void> {
  const workspaceId = requireActorWorkspace(actor);
  const provider = MAILBOX_PROVIDERS.find((known) => known === input.provider);
  if (!provider) throw validationFailed("provider", `provider: one of ${MAILBOX_PROVIDERS.join(", ")}.`);
  const rate = input.ratePerMinute;
  if (rate !== null && (!Number.isInteger(rate) || rate < 1 || rate > MAX_RATE_PER_MINUTE))
    throw validationFailed("ratePerMinute", `ratePerMinute: a whole number from 1 to ${MAX_RATE_PER_MINUTE}.`);
  await ctx.db
    .insert(providerPaces)
    .values({ workspaceId, provider, ratePerMinute: rate })
    .onConflictDoUpdate({
      target: [providerPaces.workspaceId, providerPaces.provider],
      set: { ratePerMinute: rate, updatedAt: ctx.clock.now() },
    });
}

import { eq } from "drizzle-orm";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { POST as stripeWebhook } from "@/app/api/providers/stripe/route";
import { systemActor } from "@/lib/actor";
import { workspaceBilling } from "@/lib/db/schema";
import { overrideEnvForTests, reloadEnv } from "@/lib/env";
import { seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { getBillingOrThrow } from "../get-billing";
import { startDuePeriods } from "../invoices";

// Stripe is faked at its boundary with us: signed webhook events, as Stripe posts them, in the orders
// Stripe may deliver them. The route applies them on the system clock.
const { ctx, clock } = testCtx(new Date());
const WEBHOOK_SECRET = "whsec_upgrades";
const DAY = 86_400;

beforeAll(() => {
  overrideEnvForTests({
    STRIPE_SECRET_KEY: "sk_test_local",
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_PRICE_STARTER: "price_starter",
    STRIPE_PRICE_GROWTH: "price_growth",
    STRIPE_PRICE_SCALE: "price_scale",
  });
});
afterAll(() => reloadEnv());

const seconds = (offset = 0) => Math.floor(Date.now() / 1000) + offset;
let counter = 0;

async function post(event: { type: string; created?: number; data: { object: object } }, id = `evt_up_${++counter}`) {
  const payload = JSON.stringify({ id, object: "event", created: seconds(), ...event });
  const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
  const response = await stripeWebhook(
    new Request("http://localhost/api/providers/stripe", {
      method: "POST",
      body: payload,
      headers: { "stripe-signature": header },
    }),
  );
  expect(response.status).toBe(200);
  return ((await response.json()) as { result: string }).result;
}

type Plan = "starter" | "growth" | "scale";
const PRICES: Record<Plan, number> = { starter: 1500, growth: 7900, scale: 39900 };
type Status = "active" | "trialing" | "incomplete" | "past_due";

/** A workspace whose Stripe customer is its own, with a subscription whose cycle started `daysIn` days ago. */
async function stripeWorkspace(daysIn = 5) {
  const { workspaceId } = await seedWorkspace(ctx);
  const customer = `cus_${workspaceId}`;
  await ctx.db
    .update(workspaceBilling)
    .set({ provider: "stripe", stripeCustomerId: customer })
    .where(eq(workspaceBilling.workspaceId, workspaceId));
  const cycle = { start: seconds(-daysIn * DAY), end: seconds((30 - daysIn) * DAY) };
  const subscription = `sub_${workspaceId}`;

  const subscriptionEvent = (
    plan: Plan,
    status: Status,
    options: { type?: string; cancel?: boolean; created?: number } = {},
  ) => ({
    type: options.type ?? "customer.subscription.updated",
    created: options.created ?? seconds(),
    data: {
      object: {
        id: subscription,
        object: "subscription",
        customer,
        status,
        cancel_at_period_end: options.cancel ?? false,
        items: {
          data: [{ price: { id: `price_${plan}` }, current_period_start: cycle.start, current_period_end: cycle.end }],
        },
      },
    },
  });
  const line = (plan: Plan, amount: number, start: number) => ({
    amount,
    period: { start, end: cycle.end },
    pricing: { type: "price_details", price_details: { price: `price_${plan}` } },
  });
  const invoiceEvent = (invoiceId: string, lines: ReturnType<typeof line>[], type = "invoice.paid") => ({
    type,
    data: {
      object: {
        id: invoiceId,
        object: "invoice",
        customer,
        amount_due: lines.reduce((sum, l) => sum + l.amount, 0),
        currency: "usd",
        created: seconds(),
        due_date: null,
        period_start: cycle.start,
        period_end: cycle.start,
        hosted_invoice_url: null,
        parent: { type: "subscription_details", subscription_details: { subscription, metadata: {} } },
        lines: { data: lines },
      },
    },
  });
  /** The cycle's own invoice, for the whole month of a plan. */
  const cycleInvoice = (invoiceId: string, plan: Plan) =>
    invoiceEvent(invoiceId, [line(plan, PRICES[plan], cycle.start)]);
  /** A move up mid-cycle, prorated: the unused time of the old plan credited, the rest of the new one charged. */
  const upgradeInvoice = (invoiceId: string, from: Plan, to: Plan, type?: string) =>
    invoiceEvent(invoiceId, [line(from, -1000, seconds(-1)), line(to, 5200, seconds(-1))], type);
  const billing = () => getBillingOrThrow(ctx, systemActor("test", workspaceId));
  return { workspaceId, subscriptionEvent, cycleInvoice, upgradeInvoice, billing };
}

/** A workspace on Starter, paid for and active, as Checkout leaves it. */
async function starterWorkspace() {
  const w = await stripeWorkspace();
  await post(
    w.subscriptionEvent("starter", "active", { type: "customer.subscription.created", created: seconds(-60) }),
  );
  await post(w.cycleInvoice(`in_start_${w.workspaceId}`, "starter"));
  expect(await w.billing()).toMatchObject({ stage: "active", plan: { id: "starter" }, sendAllowance: 10_000 });
  return w;
}

describe("Plan changes with Stripe", () => {
  it("an upgrade Stripe reports waits, shown as pending, until its invoice is paid while the subscription is active", async () => {
    const w = await starterWorkspace();
    await post(w.subscriptionEvent("growth", "active"));
    expect(await w.billing()).toMatchObject({
      plan: { id: "starter" },
      sendAllowance: 10_000,
      pendingPlan: { id: "growth", name: "Growth" },
    });
    await post(w.upgradeInvoice("in_up_1", "starter", "growth"));
    expect(await w.billing()).toMatchObject({ plan: { id: "growth" }, sendAllowance: 100_000, pendingPlan: null });
  });

  it("paying for a move up mid-period does not start the period's count again, at payment or on the billing cron", async () => {
    const w = await starterWorkspace();
    const periodStartedAt = new Date((Math.floor(Date.now() / 1000) - 5 * DAY) * 1000);
    await ctx.db
      .update(workspaceBilling)
      .set({ periodStartedAt, sendsUsed: 5000 })
      .where(eq(workspaceBilling.workspaceId, w.workspaceId));
    await post(w.subscriptionEvent("growth", "active"));
    await post(w.upgradeInvoice("in_up_mid", "starter", "growth"));
    expect(await w.billing()).toMatchObject({
      plan: { id: "growth" },
      sendAllowance: 100_000,
      sendsUsed: 5000,
      periodStartedAt,
    });
    clock.set(new Date());
    await startDuePeriods(ctx);
    expect(await w.billing()).toMatchObject({ sendsUsed: 5000, periodStartedAt });
  });

  it("an upgrade cancelled before its invoice is paid never raises the allowance", async () => {
    const w = await starterWorkspace();
    await post(w.subscriptionEvent("growth", "active"));
    await post(w.subscriptionEvent("growth", "active", { cancel: true }));
    expect(await w.billing()).toMatchObject({
      plan: { id: "starter" },
      sendAllowance: 10_000,
      cancelAtPeriodEnd: true,
    });
  });

  it("an upgrade's invoice paid before Stripe reports the change applies the upgrade when the change arrives", async () => {
    const w = await starterWorkspace();
    await post(w.upgradeInvoice("in_up_early", "starter", "growth"));
    expect(await w.billing()).toMatchObject({ plan: { id: "starter" }, sendAllowance: 10_000 });
    await post(w.subscriptionEvent("growth", "active"));
    expect(await w.billing()).toMatchObject({ plan: { id: "growth" }, sendAllowance: 100_000, pendingPlan: null });
  });

  it.each(["trialing", "incomplete", "past_due"] as const)(
    "a %s subscription never raises the allowance, even with its invoice paid",
    async (status) => {
      const w = await starterWorkspace();
      await post(w.subscriptionEvent("growth", status));
      expect(await w.billing()).toMatchObject({ plan: { id: "starter" }, sendAllowance: 10_000 });
      await post(w.upgradeInvoice(`in_up_${status}`, "starter", "growth"));
      expect(await w.billing()).toMatchObject({
        plan: { id: "starter" },
        sendAllowance: 10_000,
        pendingPlan: { id: "growth" },
      });
      // Active once the payment went through: the invoice already paid applies the upgrade then.
      await post(w.subscriptionEvent("growth", "active"));
      expect(await w.billing()).toMatchObject({ plan: { id: "growth" }, sendAllowance: 100_000, pendingPlan: null });
    },
  );

  it("a trial keeps its 1,000-send cap while its first subscription is incomplete, and gets the plan once it is paid and active", async () => {
    const w = await stripeWorkspace(0);
    await post(w.subscriptionEvent("growth", "incomplete", { type: "customer.subscription.created" }));
    // Stripe updates an incomplete subscription too (a payment method attached, a new attempt).
    await post(w.subscriptionEvent("growth", "incomplete"));
    expect(await w.billing()).toMatchObject({
      stage: "trial",
      plan: null,
      sendAllowance: 1000,
      pendingPlan: { id: "growth" },
    });
    await post(w.cycleInvoice(`in_first_${w.workspaceId}`, "growth"));
    expect(await w.billing()).toMatchObject({ plan: null, sendAllowance: 1000 });
    await post(w.subscriptionEvent("growth", "active"));
    expect(await w.billing()).toMatchObject({
      stage: "active",
      plan: { id: "growth" },
      sendAllowance: 100_000,
      pendingPlan: null,
    });
  });

  it("a downgrade applies as soon as Stripe reports it", async () => {
    const w = await stripeWorkspace();
    await post(w.subscriptionEvent("growth", "active", { type: "customer.subscription.created" }));
    await post(w.cycleInvoice(`in_growth_${w.workspaceId}`, "growth"));
    expect(await w.billing()).toMatchObject({ plan: { id: "growth" }, sendAllowance: 100_000 });
    await post(w.subscriptionEvent("starter", "past_due"));
    expect(await w.billing()).toMatchObject({ plan: { id: "starter" }, sendAllowance: 10_000, pendingPlan: null });
  });

  it("an invoice paid before the plan last went down pays for no later upgrade", async () => {
    const w = await starterWorkspace();
    await post(w.subscriptionEvent("growth", "active", { created: seconds(-2) }));
    await post(w.upgradeInvoice("in_up_once", "starter", "growth"));
    await post(w.subscriptionEvent("starter", "active", { created: seconds(-1) }));
    expect(await w.billing()).toMatchObject({ plan: { id: "starter" }, sendAllowance: 10_000 });
    await post(w.subscriptionEvent("growth", "active"));
    expect(await w.billing()).toMatchObject({
      plan: { id: "starter" },
      sendAllowance: 10_000,
      pendingPlan: { id: "growth" },
    });
  });

  it("a subscription event older than one already applied changes nothing; a redelivered one is a duplicate", async () => {
    const w = await stripeWorkspace();
    await post(
      w.subscriptionEvent("growth", "active", { type: "customer.subscription.created", created: seconds(-60) }),
    );
    await post(w.cycleInvoice(`in_growth_${w.workspaceId}`, "growth"));
    const latest = w.subscriptionEvent("scale", "active", { created: seconds(-10) });
    await post(latest, `evt_latest_${w.workspaceId}`);
    // Stripe sent these before the latest one; they arrive after it.
    await post(w.subscriptionEvent("starter", "active", { created: seconds(-30) }));
    await post(w.subscriptionEvent("growth", "incomplete", { created: seconds(-20) }));
    expect(await post(latest, `evt_latest_${w.workspaceId}`)).toBe("duplicate");
    expect(await w.billing()).toMatchObject({
      plan: { id: "growth" },
      sendAllowance: 100_000,
      pendingPlan: { id: "scale" },
    });
    // Still active as far as the service knows: the paid invoice applies the upgrade.
    await post(w.upgradeInvoice("in_up_scale", "growth", "scale"));
    expect(await w.billing()).toMatchObject({ plan: { id: "scale" }, sendAllowance: 1_000_000, pendingPlan: null });
  });

  it("invoice.payment_succeeded settles like invoice.paid, and the two for one invoice apply it once", async () => {
    const w = await starterWorkspace();
    await post(w.subscriptionEvent("growth", "active"));
    await post(w.upgradeInvoice("in_up_succeeded", "starter", "growth", "invoice.payment_succeeded"));
    expect(await w.billing()).toMatchObject({ plan: { id: "growth" }, sendAllowance: 100_000, pendingPlan: null });
    await post(w.upgradeInvoice("in_up_succeeded", "starter", "growth"));
    const billing = await w.billing();
    expect(billing).toMatchObject({ plan: { id: "growth" }, sendAllowance: 100_000 });
    expect(billing.invoices.filter((invoice) => invoice.providerInvoiceId === "in_up_succeeded")).toEqual([
      expect.objectContaining({ status: "paid", plan: "growth" }),
    ]);
  });
});

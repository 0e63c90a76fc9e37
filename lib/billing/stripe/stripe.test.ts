import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { POST as stripeWebhook } from "@/app/api/providers/stripe/route";
import { functions } from "@/inngest";
import { inngest, routeEmbeddedEvents } from "@/inngest/client";
import { createEmbeddedExecutor } from "@/inngest/embedded/executor";
import { setWorkflowCtx } from "@/inngest/workflow-ctx";
import { systemActor } from "@/lib/actor";
import { workspaceBilling } from "@/lib/db/schema";
import { overrideEnvForTests, reloadEnv } from "@/lib/env";
import { seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { getBillingOrThrow } from "../get-billing";
import { stripeConfig } from "./stripe-config";
import { openCustomerPortal, startCheckout } from "./stripe-sessions";

const { ctx } = testCtx(new Date(Date.now() + 60 * 60_000));
const executor = createEmbeddedExecutor({ client: inngest, functions });
const WEBHOOK_SECRET = "whsec_test_secret";

/** A local server answering the few Stripe API calls the service makes, recording each request. */
const requests: { method: string; path: string; form: URLSearchParams; idempotencyKey: string | undefined }[] = [];
let server: Server;
beforeAll(async () => {
  server = createServer(async (request: IncomingMessage, response) => {
    let body = "";
    for await (const chunk of request) body += chunk;
    const form = new URLSearchParams(body);
    requests.push({
      method: request.method!,
      path: request.url!,
      form,
      idempotencyKey: request.headers["idempotency-key"] as string | undefined,
    });
    const reply = (object: object) =>
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(object));
    if (request.url === "/v1/customers") return reply({ id: "cus_test_1", object: "customer" });
    if (request.url === "/v1/checkout/sessions")
      return reply({ id: "cs_test_1", object: "checkout.session", url: "https://checkout.stripe.test/cs_test_1" });
    if (request.url === "/v1/billing_portal/sessions")
      return reply({
        id: "bps_test_1",
        object: "billing_portal.session",
        url: "https://billing.stripe.test/p/bps_test_1",
      });
    response
      .writeHead(404, { "content-type": "application/json" })
      .end(JSON.stringify({ error: { type: "invalid_request_error", message: "unknown path" } }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  overrideEnvForTests({
    STRIPE_SECRET_KEY: "sk_test_local",
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_PRICE_GROWTH: "price_growth",
    STRIPE_PRICE_STARTER: "price_starter",
    STRIPE_API_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
  });
  setWorkflowCtx(ctx);
  routeEmbeddedEvents((sent) => executor.enqueue(ctx, sent));
});
afterAll(async () => {
  reloadEnv();
  setWorkflowCtx(undefined);
  await new Promise((resolve) => server.close(resolve));
});

const config = () => stripeConfig()!;

/** A Stripe event as Stripe would post it, signed with the library's test-header helper. */
function signed(event: object, secret = WEBHOOK_SECRET) {
  const payload = JSON.stringify(event);
  const header = Stripe.webhooks.generateTestHeaderString({ payload, secret });
  return new Request("http://localhost/api/providers/stripe", {
    method: "POST",
    body: payload,
    headers: { "stripe-signature": header, "content-type": "application/json" },
  });
}

let eventCounter = 0;
function invoiceEvent(type: "invoice.paid" | "invoice.payment_failed", invoiceId: string, customer = "cus_test_1") {
  const start = Math.floor(ctx.clock.now().getTime() / 1000);
  return {
    id: `evt_${++eventCounter}_${Date.now()}`,
    object: "event",
    type,
    created: start,
    data: {
      object: {
        id: invoiceId,
        object: "invoice",
        customer,
        amount_due: 7900,
        currency: "usd",
        created: start,
        due_date: null,
        period_start: start,
        period_end: start,
        hosted_invoice_url: `https://invoice.stripe.test/${invoiceId}`,
        parent: { type: "subscription_details", subscription_details: { subscription: "sub_1", metadata: {} } },
        lines: {
          data: [
            {
              amount: 7900,
              period: { start, end: start + 30 * 86400 },
              pricing: { type: "price_details", price_details: { price: "price_growth" } },
            },
          ],
        },
      },
    },
  };
}

/** Checkout made the workspace's subscription to Growth, and Stripe reports it active. */
function subscriptionCreated() {
  const now = Math.floor(ctx.clock.now().getTime() / 1000);
  return signed({
    id: `evt_created_${++eventCounter}`,
    object: "event",
    type: "customer.subscription.created",
    created: now - 60,
    data: {
      object: {
        id: "sub_1",
        object: "subscription",
        customer: "cus_test_1",
        status: "active",
        cancel_at_period_end: false,
        items: { data: [{ price: { id: "price_growth" }, current_period_end: now + 30 * 86400 }] },
      },
    },
  });
}

async function stripeWorkspace() {
  const { workspaceId } = await seedWorkspace(ctx);
  await ctx.db
    .update(workspaceBilling)
    .set({ stripeCustomerId: null })
    .where(eq(workspaceBilling.stripeCustomerId, "cus_test_1"));
  return workspaceId;
}

describe("Stripe provider", () => {
  it("Checkout subscribes the workspace's own customer to the plan's price in the workspace's currency", async () => {
    const workspaceId = await stripeWorkspace();
    requests.length = 0;
    const url = await startCheckout(ctx, config(), workspaceId, "growth");
    expect(url).toBe("https://checkout.stripe.test/cs_test_1");
    const [customer, session] = requests;
    expect(customer!.path).toBe("/v1/customers");
    expect(customer!.form.get("metadata[workspace_id]")).toBe(workspaceId);
    expect(customer!.idempotencyKey).toBe(`customer-${workspaceId}`);
    expect(session!.path).toBe("/v1/checkout/sessions");
    expect(Object.fromEntries(session!.form)).toMatchObject({
      mode: "subscription",
      customer: "cus_test_1",
      currency: "usd",
      client_reference_id: workspaceId,
      "line_items[0][price]": "price_growth",
      "subscription_data[metadata][workspace_id]": workspaceId,
    });
    expect((await getBillingOrThrow(ctx, systemActor("test", workspaceId))).provider).toBe("stripe");
  });

  it("the Customer Portal opens for the workspace's customer and returns to its billing page", async () => {
    const workspaceId = await stripeWorkspace();
    await startCheckout(ctx, config(), workspaceId, "starter");
    requests.length = 0;
    expect(await openCustomerPortal(ctx, config(), workspaceId)).toBe("https://billing.stripe.test/p/bps_test_1");
    expect(requests.map((r) => r.path)).toEqual(["/v1/billing_portal/sessions"]);
    expect(requests[0]!.form.get("customer")).toBe("cus_test_1");
    expect(requests[0]!.form.get("return_url")).toMatch(new RegExp(`/w/${workspaceId}/billing$`));
  });

  it("a webhook without a valid signature answers 400 and changes nothing", async () => {
    const workspaceId = await stripeWorkspace();
    await startCheckout(ctx, config(), workspaceId, "growth");
    const response = await stripeWebhook(signed(invoiceEvent("invoice.paid", "in_forged"), "whsec_wrong"));
    expect(response.status).toBe(400);
    expect((await getBillingOrThrow(ctx, systemActor("test", workspaceId))).invoices).toEqual([]);
  });

  it("a webhook whose body was changed after signing answers 400 and changes nothing: the signature covers the raw bytes", async () => {
    const workspaceId = await stripeWorkspace();
    await startCheckout(ctx, config(), workspaceId, "growth");
    const payload = JSON.stringify(invoiceEvent("invoice.paid", "in_tampered"));
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    // The same JSON with one space more: equal once parsed, different bytes.
    const tampered = payload.replace('"object":"event"', '"object": "event"');
    const response = await stripeWebhook(
      new Request("http://localhost/api/providers/stripe", {
        method: "POST",
        body: tampered,
        headers: { "stripe-signature": header },
      }),
    );
    expect(response.status).toBe(400);
    expect((await getBillingOrThrow(ctx, systemActor("test", workspaceId))).invoices).toEqual([]);
  });

  it("invoice.paid settles: the workspace of an active subscription is active on the invoice's plan, and a redelivery changes nothing", async () => {
    const workspaceId = await stripeWorkspace();
    await startCheckout(ctx, config(), workspaceId, "growth");
    await stripeWebhook(subscriptionCreated());
    const event = invoiceEvent("invoice.paid", "in_paid_1");
    expect(await (await stripeWebhook(signed(event))).json()).toEqual({ received: true, result: "applied" });
    expect(await (await stripeWebhook(signed(event))).json()).toEqual({ received: true, result: "duplicate" });
    const billing = await getBillingOrThrow(ctx, systemActor("test", workspaceId));
    expect(billing).toMatchObject({ stage: "active", plan: { id: "growth" }, sendAllowance: 100_000 });
    expect(billing.invoices).toEqual([
      expect.objectContaining({
        providerInvoiceId: "in_paid_1",
        status: "paid",
        amount: 7900,
        currency: "usd",
        hostedUrl: "https://invoice.stripe.test/in_paid_1",
      }),
    ]);
  });

  it("invoice.payment_failed starts the ladder; a later invoice.paid for the same invoice ends it", async () => {
    const workspaceId = await stripeWorkspace();
    await startCheckout(ctx, config(), workspaceId, "growth");
    await stripeWebhook(signed(invoiceEvent("invoice.paid", "in_first")));
    await stripeWebhook(signed(invoiceEvent("invoice.payment_failed", "in_second")));
    await executor.runDue(ctx);
    expect((await getBillingOrThrow(ctx, systemActor("test", workspaceId))).stage).toBe("overdue");
    await stripeWebhook(signed(invoiceEvent("invoice.paid", "in_second")));
    const billing = await getBillingOrThrow(ctx, systemActor("test", workspaceId));
    expect(billing.stage).toBe("active");
    expect(billing.invoices.map((invoice) => [invoice.providerInvoiceId, invoice.status])).toEqual(
      expect.arrayContaining([
        ["in_first", "paid"],
        ["in_second", "paid"],
      ]),
    );
  });

  it("a cancellation in the portal takes effect at the end of the period; taking it back ends the walk", async () => {
    const workspaceId = await stripeWorkspace();
    await startCheckout(ctx, config(), workspaceId, "growth");
    await stripeWebhook(subscriptionCreated());
    await stripeWebhook(signed(invoiceEvent("invoice.paid", "in_sub")));
    const periodEnd = Math.floor(ctx.clock.now().getTime() / 1000) + 30 * 86400;
    const subscription = (cancel: boolean) => ({
      id: `evt_sub_${++eventCounter}`,
      object: "event",
      type: "customer.subscription.updated",
      created: Math.floor(ctx.clock.now().getTime() / 1000),
      data: {
        object: {
          id: "sub_1",
          object: "subscription",
          customer: "cus_test_1",
          status: "active",
          cancel_at_period_end: cancel,
          items: { data: [{ price: { id: "price_growth" }, current_period_end: periodEnd }] },
        },
      },
    });
    await stripeWebhook(signed(subscription(true)));
    let billing = await getBillingOrThrow(ctx, systemActor("test", workspaceId));
    expect(billing).toMatchObject({
      stage: "active",
      cancelAtPeriodEnd: true,
      upcoming: [{ stage: "read_only", at: new Date(periodEnd * 1000) }, expect.anything(), expect.anything()],
    });
    await stripeWebhook(signed(subscription(false)));
    billing = await getBillingOrThrow(ctx, systemActor("test", workspaceId));
    expect(billing).toMatchObject({ stage: "active", cancelAtPeriodEnd: false, upcoming: [] });
  });

  it("customer.subscription.deleted makes the workspace read-only", async () => {
    const workspaceId = await stripeWorkspace();
    await startCheckout(ctx, config(), workspaceId, "growth");
    await stripeWebhook(subscriptionCreated());
    await stripeWebhook(signed(invoiceEvent("invoice.paid", "in_del")));
    await stripeWebhook(
      signed({
        id: `evt_del_${++eventCounter}`,
        object: "event",
        type: "customer.subscription.deleted",
        created: Math.floor(ctx.clock.now().getTime() / 1000),
        data: { object: { id: "sub_2", object: "subscription", customer: "cus_test_1" } },
      }),
    );
    await executor.runDue(ctx);
    expect((await getBillingOrThrow(ctx, systemActor("test", workspaceId))).stage).toBe("read_only");
  });
});

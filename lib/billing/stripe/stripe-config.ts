import Stripe from "stripe";

import { env, type Env } from "@/lib/env";

import { PLANS } from "../plans";

export interface StripeConfig {
  secretKey: string;
  webhookSecret: string | null;
  /** Plan id → Stripe price id, from STRIPE_PRICE_<PLAN> (e.g. STRIPE_PRICE_GROWTH). */
  prices: Record<string, string>;
  /** STRIPE_API_URL: another Stripe API endpoint (a local server speaking Stripe's API in tests). */
  apiUrl: URL | null;
}

/** Stripe is the provider when STRIPE_SECRET_KEY is set; otherwise billing is manual. */
export function stripeConfig(config: Env = env()): StripeConfig | null {
  if (!config.STRIPE_SECRET_KEY) return null;
  const prices: Record<string, string> = {};
  for (const plan of PLANS) {
    const price = config[`STRIPE_PRICE_${plan.id.toUpperCase()}` as keyof Env];
    if (typeof price === "string" && price) prices[plan.id] = price;
  }
  return {
    secretKey: config.STRIPE_SECRET_KEY,
    webhookSecret: config.STRIPE_WEBHOOK_SECRET ?? null,
    prices,
    apiUrl: config.STRIPE_API_URL ? new URL(config.STRIPE_API_URL) : null,
  };
}

export function stripeClient(config: StripeConfig): Stripe {
  const api = config.apiUrl;
  return new Stripe(config.secretKey, {
    maxNetworkRetries: 2,
    ...(api
      ? {
          host: api.hostname,
          port: api.port || (api.protocol === "https:" ? 443 : 80),
          protocol: api.protocol === "https:" ? "https" : "http",
        }
      : {}),
  });
}

/** The plan a Stripe price stands for, if it is one of ours. */
export function planOfPrice(config: StripeConfig, priceId: string | null | undefined): string | null {
  return Object.entries(config.prices).find(([, price]) => price === priceId)?.[0] ?? null;
}

/** The currencies a workspace can be billed in, chosen once at its creation. */
export const CURRENCIES = ["usd", "eur", "gbp"] as const;
export type Currency = (typeof CURRENCIES)[number];

export interface Plan {
  id: string;
  name: string;
  /** Sends per monthly period. */
  sendAllowance: number;
  /** Monthly price in each currency's minor unit. */
  price: Record<Currency, number>;
}

/** The plans on offer. Stripe prices for them come from `STRIPE_PRICE_<ID>` (e.g. STRIPE_PRICE_GROWTH). */
export const PLANS: readonly Plan[] = [
  { id: "starter", name: "Starter", sendAllowance: 10_000, price: { usd: 1500, eur: 1500, gbp: 1300 } },
  { id: "growth", name: "Growth", sendAllowance: 100_000, price: { usd: 7900, eur: 7500, gbp: 6500 } },
  { id: "scale", name: "Scale", sendAllowance: 1_000_000, price: { usd: 39900, eur: 37900, gbp: 32900 } },
];

export function findPlan(id: string | null | undefined): Plan | undefined {
  return PLANS.find((plan) => plan.id === id);
}

/** "$79.00", "€75.00": an amount in minor units, as an invoice shows it. */
export function formatMoney(amount: number, currency: string): string {
  return new Intl.NumberFormat("en", { style: "currency", currency: currency.toUpperCase() }).format(amount / 100);
}

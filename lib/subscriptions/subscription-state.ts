import type { SubscriptionState } from "@/lib/db/schema";

/**
 * Whether an opt-out can end this subscription: a pending one too (the person may still click the
 * confirmation link), only not one already ended. The same rule unsubscribe() applies in SQL
 * (lib/consent/unsubscribe.ts); the contact page asks it before offering "Unsubscribe".
 */
export function canOptOut(state: SubscriptionState): boolean {
  return state !== "unsubscribed";
}

import Stripe from "stripe";

import { toErrorResponse } from "@/lib/api/error-response";
import { applyStripeEvent } from "@/lib/billing/stripe/apply-stripe-event";
import { stripeConfig } from "@/lib/billing/stripe/stripe-config";
import { defaultCtx } from "@/lib/context";
import { readBodyCapped, SMALL_BODY_MAX_BYTES } from "@/lib/http/read-body-capped";

// POST /api/providers/stripe — Stripe's billing events, verified with the `stripe` library over the raw
// body. Unsigned or tampered requests get 400 and change nothing; a redelivery is answered the same and
// applied no second time; a failure answers 500 so Stripe delivers it again.
export async function POST(request: Request): Promise<Response> {
  const config = stripeConfig();
  if (!config?.webhookSecret) return Response.json({ error: "Stripe is not configured" }, { status: 404 });
  // Capped: the body is read before the signature can be checked, so anyone can send it.
  const bytes = await readBodyCapped(request, SMALL_BODY_MAX_BYTES).catch(toErrorResponse);
  if (bytes instanceof Response) return bytes;
  let event: Stripe.Event;
  try {
    event = Stripe.webhooks.constructEvent(
      Buffer.from(bytes),
      request.headers.get("stripe-signature") ?? "",
      config.webhookSecret,
    );
  } catch {
    return Response.json({ error: "signature verification failed" }, { status: 400 });
  }
  try {
    return Response.json({ received: true, result: await applyStripeEvent(defaultCtx(), config, event) });
  } catch (error) {
    return toErrorResponse(error);
  }
}

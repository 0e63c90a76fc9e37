import { recordProviderEvent } from "@/lib/deliverability/record-provider-event";
import { toProviderEvent, verifyResendWebhook } from "@/lib/deliverability/resend-webhook";
import { defaultCtx } from "@/lib/context";

// POST /api/providers/resend — Resend's delivery events (Svix-signed). Unsigned or tampered requests get 401.
export async function POST(request: Request): Promise<Response> {
  const secret = process.env.RESEND_WEBHOOK_SECRET;
  const raw = await request.text();
  const event = secret ? verifyResendWebhook(secret, raw, request.headers) : null;
  if (!event) return Response.json({ error: "signature verification failed" }, { status: 401 });
  const outcome = toProviderEvent(event);
  if (outcome) await recordProviderEvent(defaultCtx(), outcome);
  return Response.json({ received: true });
}

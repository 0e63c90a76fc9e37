import { toErrorResponse } from "@/lib/api/error-response";
import { recordProviderEvent } from "@/lib/deliverability/record-provider-event";
import { toProviderEvent, verifyResendWebhook } from "@/lib/deliverability/resend-webhook";
import { defaultCtx } from "@/lib/context";
import { readBodyCapped, SMALL_BODY_MAX_BYTES } from "@/lib/http/read-body-capped";

// POST /api/providers/resend — Resend's delivery events (Svix-signed). Unsigned or tampered requests get 401.
export async function POST(request: Request): Promise<Response> {
  const secret = process.env.RESEND_WEBHOOK_SECRET;
  // Capped: the body is read before the signature can be checked, so anyone can send it.
  const bytes = await readBodyCapped(request, SMALL_BODY_MAX_BYTES).catch(toErrorResponse);
  if (bytes instanceof Response) return bytes;
  const raw = new TextDecoder().decode(bytes);
  const event = secret ? verifyResendWebhook(secret, raw, request.headers) : null;
  if (!event) return Response.json({ error: "signature verification failed" }, { status: 401 });
  const outcome = toProviderEvent(event);
  if (outcome) await recordProviderEvent(defaultCtx(), outcome);
  return Response.json({ received: true });
}

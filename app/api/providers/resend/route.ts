import { toErrorResponse } from "@/lib/api/error-response";
import { defaultCtx } from "@/lib/context";
import { receiveProviderEvent } from "@/lib/deliverability/receive-provider-event";
import { toProviderEvent, verifyResendWebhook } from "@/lib/deliverability/resend-webhook";
import { env } from "@/lib/env";
import { readBodyCapped, SMALL_BODY_MAX_BYTES } from "@/lib/http/read-body-capped";

// POST /api/providers/resend — Resend's delivery events (Svix-signed). Unsigned or tampered requests get 401.
// A verified event is stored and answered at once; the apply-provider-event workflow applies it. A redelivery
// (the same svix-id) is answered the same and applied no second time.
export async function POST(request: Request): Promise<Response> {
  const secret = env().RESEND_WEBHOOK_SECRET;
  // Capped: the body is read before the signature can be checked, so anyone can send it.
  const bytes = await readBodyCapped(request, SMALL_BODY_MAX_BYTES).catch(toErrorResponse);
  if (bytes instanceof Response) return bytes;
  const raw = new TextDecoder().decode(bytes);
  const event = secret ? verifyResendWebhook(secret, raw, request.headers) : null;
  if (!event) return Response.json({ error: "signature verification failed" }, { status: 401 });
  try {
    await receiveProviderEvent(defaultCtx(), {
      provider: "resend",
      providerEventId: request.headers.get("svix-id")!,
      raw,
      event: toProviderEvent(event),
    });
  } catch (error) {
    return toErrorResponse(error); // not stored: a 500 makes Resend deliver it again
  }
  return Response.json({ received: true });
}

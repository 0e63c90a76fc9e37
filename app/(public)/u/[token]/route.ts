import { toErrorResponse } from "@/lib/api/error-response";
import { isOneClickBody } from "@/lib/consent/is-one-click-body";
import { readUnsubscribeToken } from "@/lib/consent/links";
import { unsubscribe } from "@/lib/consent/unsubscribe";
import { defaultCtx } from "@/lib/context";
import { readBodyCapped, SMALL_BODY_MAX_BYTES } from "@/lib/http/read-body-capped";

// POST /u/{token} — RFC 8058 one-click unsubscribe (List-Unsubscribe-Post): cookieless, from the topic, idempotent.
export async function POST(request: Request, { params }: { params: Promise<{ token: string }> }): Promise<Response> {
  const target = readUnsubscribeToken((await params).token);
  if (!target) return new Response("This unsubscribe link is not valid.", { status: 400 });
  const bytes = await readBodyCapped(request, SMALL_BODY_MAX_BYTES).catch(toErrorResponse);
  if (bytes instanceof Response) return bytes;
  if (!(await isOneClickBody(bytes, request.headers.get("content-type")))) {
    return new Response("Send List-Unsubscribe=One-Click, or open the link in a browser.", { status: 400 });
  }
  await unsubscribe(defaultCtx(), { ...target, scope: "topic" });
  return new Response("You are unsubscribed.", {
    status: 200,
    headers: { "content-type": "text/plain; charset=utf-8" },
  });
}

// GET /u/{token} — a GET never changes anything: it shows the unsubscribe page.
export async function GET(_request: Request, { params }: { params: Promise<{ token: string }> }): Promise<Response> {
  return new Response(null, { status: 303, headers: { location: `/unsubscribe/${(await params).token}` } });
}

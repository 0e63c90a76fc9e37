import { defaultCtx } from "@/lib/context";
import { clientIpFromHeaders } from "@/lib/http/client-ip";
import { logger } from "@/lib/log/logger";
import { countryFrom, describeClient } from "@/lib/tracking/describe-client";
import { recordClick } from "@/lib/tracking/record-engagement";
import { readClickToken } from "@/lib/tracking/tracking-links";

// GET /t/c/{token} — a tracked link: records the click and redirects to the URL signed into the token, nowhere else.
export async function GET(request: Request, { params }: { params: Promise<{ token: string }> }): Promise<Response> {
  const click = readClickToken((await params).token);
  if (!click) return new Response("This link is not valid.", { status: 400 });
  const userAgent = request.headers.get("user-agent");
  const { deviceType, client } = describeClient(userAgent);
  await recordClick(defaultCtx(), click.sendId, {
    url: click.url,
    country: countryFrom(request.headers),
    deviceType,
    client,
    request: { userAgent, ip: clientIpFromHeaders(request.headers) },
  }).catch((error: unknown) => logger().error({ err: error, send_id: click.sendId }, "click not recorded"));
  return new Response(null, { status: 302, headers: { location: click.url, "cache-control": "no-store" } });
}

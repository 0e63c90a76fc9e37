import { defaultCtx } from "@/lib/context";
import { clientIpFromHeaders } from "@/lib/http/client-ip";
import { logger } from "@/lib/log/logger";
import { countryFrom } from "@/lib/tracking/describe-client";
import { recordOpen } from "@/lib/tracking/record-engagement";
import { readOpenToken } from "@/lib/tracking/tracking-links";

// A transparent 1×1 GIF.
const PIXEL = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

// GET /t/o/{token} — the open pixel. Always answers the image; only a genuine token is recorded.
export async function GET(request: Request, { params }: { params: Promise<{ token: string }> }): Promise<Response> {
  const open = readOpenToken((await params).token);
  if (open)
    await recordOpen(defaultCtx(), open.sendId, {
      country: countryFrom(request.headers),
      request: { userAgent: request.headers.get("user-agent"), ip: clientIpFromHeaders(request.headers) },
    }).catch((error: unknown) => logger().error({ err: error, send_id: open.sendId }, "open not recorded"));
  return new Response(PIXEL, { headers: { "content-type": "image/gif", "cache-control": "no-store, private" } });
}

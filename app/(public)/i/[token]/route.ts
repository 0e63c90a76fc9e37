import { defaultCtx } from "@/lib/context";
import { readPublicImage } from "@/lib/images/read-public-image";
import { BucketError } from "@/lib/images/s3-bucket";
import { logger } from "@/lib/log/logger";

// Never in another site's frame: next.config.ts leaves /i/ out, since a header set there would replace the image's own policy.
const NOT_FRAMED = { "content-security-policy": "frame-ancestors 'none'", "x-frame-options": "DENY" };

// GET /i/{token} — an image uploaded for campaigns. Public and unchanging: caches may keep it for a year.
export async function GET(_request: Request, { params }: { params: Promise<{ token: string }> }): Promise<Response> {
  const token = (await params).token;
  let image: Awaited<ReturnType<typeof readPublicImage>>;
  try {
    image = await readPublicImage(defaultCtx(), token);
  } catch (error) {
    if (!(error instanceof BucketError)) throw error;
    // The bucket is down or refuses us: the mail client may try again; the operator reads why in the log.
    logger().error({ path: `/i/${token}`, err: error }, "image bucket unavailable");
    return new Response("Image temporarily unavailable", {
      status: 503,
      headers: {
        "content-type": "text/plain; charset=utf-8",
        "retry-after": "60",
        "cache-control": "no-store",
        ...NOT_FRAMED,
      },
    });
  }
  if (!image)
    return new Response("Not found", {
      status: 404,
      headers: { "content-type": "text/plain; charset=utf-8", ...NOT_FRAMED },
    });
  return new Response(new Uint8Array(image.data), {
    headers: {
      "content-type": image.contentType,
      "content-length": String(image.data.length),
      "cache-control": "public, max-age=31536000, immutable",
      // Served as what its bytes are, never sniffed as anything else.
      "x-content-type-options": "nosniff",
      "content-security-policy": `default-src 'none'; sandbox; ${NOT_FRAMED["content-security-policy"]}`,
      "x-frame-options": NOT_FRAMED["x-frame-options"],
    },
  });
}

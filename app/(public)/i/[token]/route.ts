import { defaultCtx } from "@/lib/context";
import { readPublicImage } from "@/lib/images/read-public-image";

// GET /i/{token} — an image uploaded for campaigns. Public and unchanging: caches may keep it for a year.
export async function GET(_request: Request, { params }: { params: Promise<{ token: string }> }): Promise<Response> {
  const image = await readPublicImage(defaultCtx(), (await params).token);
  if (!image) return new Response("Not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  return new Response(new Uint8Array(image.data), {
    headers: {
      "content-type": image.contentType,
      "content-length": String(image.data.length),
      "cache-control": "public, max-age=31536000, immutable",
      // Served as what its bytes are, never sniffed as anything else.
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; sandbox",
    },
  });
}

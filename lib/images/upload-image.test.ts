import { describe, expect, it } from "vitest";

import { GET } from "@/app/(public)/i/[token]/route";
import { userActor } from "@/lib/actor";
import { seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { MAX_IMAGE_BYTES, uploadImage } from "./upload-image";

const { ctx } = testCtx();

// A 1×1 PNG and a 1×1 GIF, as a browser would send their bytes.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);
const GIF = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

async function member() {
  const { workspaceId, ownerUserId } = await seedWorkspace(ctx);
  return userActor(ownerUserId, workspaceId);
}

const fetchImage = (url: string) =>
  GET(new Request(url), { params: Promise.resolve({ token: new URL(url).pathname.split("/").at(-1)! }) });

describe("campaign images", () => {
  it("an image's type is read from its bytes; it is served publicly at an unguessable address, cacheable, as that type only and never in a frame", async () => {
    const actor = await member();
    const png = await uploadImage(ctx, actor, PNG);
    expect(png).toMatchObject({ contentType: "image/png", width: 1, height: 1 });
    expect(png.url).toMatch(/\/i\/[0-9A-Za-z]{32}$/);
    expect((await uploadImage(ctx, actor, GIF)).contentType).toBe("image/gif");

    const served = await fetchImage(png.url);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("cache-control")).toContain("immutable");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(served.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox; frame-ancestors 'none'");
    expect(served.headers.get("x-frame-options")).toBe("DENY");
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
    const missing = await fetchImage(png.url.replace(/.$/, (last) => (last === "a" ? "b" : "a")));
    expect(missing.status).toBe(404);
    expect(missing.headers.get("x-frame-options")).toBe("DENY");
  });

  it("anything but a PNG, JPEG, GIF or WebP of at most 5 MiB is refused on file and nothing is kept", async () => {
    const actor = await member();
    for (const bytes of [
      Buffer.from("<svg onload=alert(1)></svg>"),
      Buffer.from("<html><script>alert(1)</script></html>"),
      Buffer.alloc(0),
      Buffer.concat([PNG, Buffer.alloc(MAX_IMAGE_BYTES)]),
    ]) {
      await expect(uploadImage(ctx, actor, bytes)).rejects.toMatchObject({ code: "validation_failed", param: "file" });
    }
  });
});

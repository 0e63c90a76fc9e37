import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

import { GET } from "@/app/(public)/i/[token]/route";
import { userActor } from "@/lib/actor";
import { deleteSomeData } from "@/lib/billing/delete-workspace-data";
import { images } from "@/lib/db/schema";
import { overrideEnvForTests, parseEnv, reloadEnv } from "@/lib/env";
import { seedWorkspace } from "@/lib/testing/factories";
import { S3_TEST_KEY, startS3Server } from "@/lib/testing/s3-server";
import { testCtx } from "@/lib/testing/test-context";

import { BucketError, s3Bucket } from "./s3-bucket";
import { imageObjectKey, uploadImage } from "./upload-image";

const { ctx } = testCtx();

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);
const BUCKET = "campaign-images";

let s3: Awaited<ReturnType<typeof startS3Server>>;
const useBucket = (extra: Record<string, string> = {}) =>
  overrideEnvForTests({
    S3_BUCKET: BUCKET,
    S3_ENDPOINT: s3.endpoint,
    S3_ACCESS_KEY_ID: S3_TEST_KEY.accessKeyId,
    S3_SECRET_ACCESS_KEY: S3_TEST_KEY.secretAccessKey,
    ...extra,
  });

beforeAll(async () => {
  s3 = await startS3Server(BUCKET);
});
afterAll(() => s3.close());
afterEach(() => reloadEnv());

async function member() {
  const { workspaceId, ownerUserId } = await seedWorkspace(ctx);
  return userActor(ownerUserId, workspaceId);
}

const tokenOf = (url: string) => new URL(url).pathname.split("/").at(-1)!;
const fetchImage = (token: string) =>
  GET(new Request(`http://localhost/i/${token}`), { params: Promise.resolve({ token }) });

describe("campaign images in an S3-compatible bucket", () => {
  it("with S3_BUCKET set, an image's bytes go to the bucket, not PostgreSQL, and are served at the same public, cacheable address", async () => {
    useBucket();
    const actor = await member();
    const image = await uploadImage(ctx, actor, PNG);
    expect(image.url).toMatch(/\/i\/[0-9A-Za-z]{32}$/);

    const [row] = await ctx.db.select().from(images).where(eq(images.id, image.id));
    expect(row).toMatchObject({
      storage: "s3",
      storageKey: imageObjectKey(tokenOf(image.url)),
      data: null,
      contentType: "image/png",
    });
    // The bucket holds the very bytes, read back with a signed request of our own.
    expect((await s3Bucket()!.get(row!.storageKey!))?.equals(PNG)).toBe(true);

    const served = await fetchImage(tokenOf(image.url));
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("cache-control")).toContain("immutable");
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it("with S3_PUBLIC_URL set, mails fetch the image from the bucket's public address, as unguessable as /i/", async () => {
    // s3rver serves unsigned reads, as a public bucket (or a CDN in front of one) does.
    useBucket({ S3_PUBLIC_URL: `${s3.endpoint}/${BUCKET}/` });
    const image = await uploadImage(ctx, await member(), PNG);
    expect(image.url).toBe(`${s3.endpoint}/${BUCKET}/${imageObjectKey(tokenOf(image.url))}`);
    expect(tokenOf(image.url)).toMatch(/^[0-9A-Za-z]{32}$/);
    const served = await fetch(image.url);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it("an upload the bucket refuses (unknown credentials) fails as ours, and keeps no image row", async () => {
    useBucket({ S3_ACCESS_KEY_ID: "NOT-A-KEY" });
    const actor = await member();
    await expect(uploadImage(ctx, actor, PNG)).rejects.toBeInstanceOf(BucketError);
    expect(await ctx.db.select().from(images).where(eq(images.workspaceId, actor.workspaceId))).toEqual([]);
  });

  it("an unreachable bucket answers 503 at the image address, with no detail", async () => {
    useBucket();
    const image = await uploadImage(ctx, await member(), PNG);
    useBucket({ S3_ENDPOINT: "http://127.0.0.1:9" });
    const served = await fetchImage(tokenOf(image.url));
    expect(served.status).toBe(503);
    expect(served.headers.get("retry-after")).toBe("60");
    expect(await served.text()).toBe("Image temporarily unavailable");
  });

  it("a deleted workspace's images leave the bucket as well as the database", async () => {
    useBucket();
    const actor = await member();
    const uploaded = [await uploadImage(ctx, actor, PNG), await uploadImage(ctx, actor, PNG)];
    const keys = uploaded.map((image) => imageObjectKey(tokenOf(image.url)));

    while ((await deleteSomeData(ctx, actor.workspaceId)) > 0);

    for (const key of keys) expect(await s3Bucket()!.get(key)).toBeNull();
    expect(await ctx.db.select().from(images).where(eq(images.workspaceId, actor.workspaceId))).toEqual([]);
  });

  it("S3_BUCKET without its key pair is refused at start, naming each missing variable", () => {
    expect(() => parseEnv({ S3_BUCKET: BUCKET })).toThrow(
      /S3_ACCESS_KEY_ID must be set when S3_BUCKET is[\s\S]*S3_SECRET_ACCESS_KEY must be set when S3_BUCKET is/,
    );
  });
});

import "server-only";

import { eq } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { images } from "@/lib/db/schema";

import { s3Bucket } from "./s3-bucket";

/** An uploaded image by its public token, for anyone who has the address (mail clients); null when there is none. */
export async function readPublicImage(ctx: Ctx, token: string): Promise<{ contentType: string; data: Buffer } | null> {
  if (!/^[0-9A-Za-z]{32}$/.test(token)) return null;
  const [image] = await ctx.db
    .select({ contentType: images.contentType, data: images.data, storageKey: images.storageKey })
    .from(images)
    .where(eq(images.token, token));
  if (!image) return null;
  if (image.data) return { contentType: image.contentType, data: image.data };
  // Kept in the bucket: served through here when the bucket is not public, or for mails sent before it was.
  const bucket = s3Bucket();
  const data = bucket && image.storageKey ? await bucket.get(image.storageKey) : null;
  return data ? { contentType: image.contentType, data } : null;
}

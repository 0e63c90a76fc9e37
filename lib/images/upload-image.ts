import "server-only";

import { imageSize } from "image-size";

import type { WorkspaceActor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { images } from "@/lib/db/schema";
import { validationFailed } from "@/lib/errors";
import { newId, randomBase62 } from "@/lib/ids";
import { appUrl } from "@/lib/runtime/app-url";

import { s3Bucket } from "./s3-bucket";

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** The formats mail clients show, by what image-size reads from the bytes (never the file's name or declared type). */
const CONTENT_TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
};

export interface UploadedImage {
  id: string;
  url: string;
  contentType: string;
  width: number | null;
  height: number | null;
}

export function imageUrl(token: string): string {
  return `${appUrl()}/i/${token}`;
}

/** The object's key in the bucket: the unguessable token, so a public bucket address is as secret as /i/. */
export function imageObjectKey(token: string): string {
  return `images/${token}`;
}

/**
 * Stores an image for the workspace's campaigns and returns its public
 * address. The type is read from the content: a PNG, JPEG, GIF or WebP up to
 * 5 MiB; anything else is `validation_failed` on `file` and nothing is kept. The bytes go to the
 * S3 bucket when one is configured, into PostgreSQL otherwise; the row is written last, so a failed
 * upload leaves no image that cannot be served.
 */
export async function uploadImage(ctx: Ctx, actor: WorkspaceActor, bytes: Buffer): Promise<UploadedImage> {
  if (bytes.length === 0) throw validationFailed("file", "The file is empty.");
  if (bytes.length > MAX_IMAGE_BYTES) throw validationFailed("file", "An image may be at most 5 MiB.");
  let found: { type?: string; width?: number; height?: number };
  try {
    found = imageSize(bytes);
  } catch {
    throw validationFailed("file", "This is not a PNG, JPEG, GIF or WebP image.");
  }
  const contentType = found.type ? CONTENT_TYPES[found.type] : undefined;
  if (!contentType) throw validationFailed("file", "This is not a PNG, JPEG, GIF or WebP image.");
  const id = newId("img");
  const token = randomBase62(32);
  const row = {
    id,
    workspaceId: actor.workspaceId,
    token,
    contentType,
    byteSize: bytes.length,
    width: found.width ?? null,
    height: found.height ?? null,
  };
  const bucket = s3Bucket();
  if (!bucket) {
    await ctx.db.insert(images).values({ ...row, storage: "database", data: bytes });
    return { id, url: imageUrl(token), contentType, width: row.width, height: row.height };
  }
  const key = imageObjectKey(token);
  await bucket.put(key, bytes, contentType);
  try {
    await ctx.db.insert(images).values({ ...row, storage: "s3", storageKey: key });
  } catch (error) {
    await bucket.delete(key).catch(() => undefined);
    throw error;
  }
  return { id, url: bucket.publicUrl(key) ?? imageUrl(token), contentType, width: row.width, height: row.height };
}

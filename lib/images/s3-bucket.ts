import "server-only";

import { AwsClient } from "aws4fetch";

import { env } from "@/lib/env";

/** A bucket call that has not answered by then has failed: an upload, a served image or a deletion never hangs on it. */
const BUCKET_TIMEOUT_MS = 30_000;

/** A failure of the bucket (refused credentials, unreachable endpoint): ours to fix, never the sender's. */
export class BucketError extends Error {}

/**
 * The S3-compatible bucket campaign images live in, when S3_BUCKET is set; null means PostgreSQL keeps them.
 * aws4fetch signs plain fetch requests (Signature V4): three verbs do not need an SDK of many megabytes.
 */
export interface S3Bucket {
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The object's bytes, or null when the bucket has no such key. */
  get(key: string): Promise<Buffer | null>;
  /** Deleting a missing key succeeds, so a repeated deletion after a crash is harmless. */
  delete(key: string): Promise<void>;
  /** The address mails fetch the object from when the bucket serves it publicly (S3_PUBLIC_URL); else null. */
  publicUrl(key: string): string | null;
}

let cached: { config: string; bucket: S3Bucket | null } | null = null;

export function s3Bucket(): S3Bucket | null {
  const { S3_BUCKET, S3_REGION, S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_PUBLIC_URL } = env();
  const config = JSON.stringify([
    S3_BUCKET,
    S3_REGION,
    S3_ENDPOINT,
    S3_ACCESS_KEY_ID,
    S3_SECRET_ACCESS_KEY,
    S3_PUBLIC_URL,
  ]);
  if (cached?.config !== config) {
    const bucket =
      S3_BUCKET && S3_ACCESS_KEY_ID && S3_SECRET_ACCESS_KEY
        ? openBucket({
            bucket: S3_BUCKET,
            region: S3_REGION,
            endpoint: S3_ENDPOINT,
            accessKeyId: S3_ACCESS_KEY_ID,
            secretAccessKey: S3_SECRET_ACCESS_KEY,
            publicBase: S3_PUBLIC_URL,
          })
        : null;
    cached = { config, bucket };
  }
  return cached.bucket;
}

interface BucketConfig {
  bucket: string;
  region: string;
  endpoint: string | undefined;
  accessKeyId: string;
  secretAccessKey: string;
  publicBase: string | undefined;
}

function openBucket(config: BucketConfig): S3Bucket {
  const client = new AwsClient({
    accessKeyId: config.accessKeyId,
    secretAccessKey: config.secretAccessKey,
    region: config.region,
    service: "s3",
  });
  const objectUrl = (key: string) => {
    const path = key.split("/").map(encodeURIComponent).join("/");
    return config.endpoint
      ? `${config.endpoint.replace(/\/+$/, "")}/${encodeURIComponent(config.bucket)}/${path}`
      : `https://${config.bucket}.s3.${config.region}.amazonaws.com/${path}`;
  };
  const call = async (method: string, key: string, init: { body?: Buffer; headers?: Record<string, string> } = {}) => {
    try {
      return await client.fetch(objectUrl(key), {
        method,
        body: init.body ? new Uint8Array(init.body) : undefined,
        headers: init.headers,
        signal: AbortSignal.timeout(BUCKET_TIMEOUT_MS),
      });
    } catch (error) {
      throw new BucketError(
        `the image bucket could not be reached (${method} ${key}): ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  };
  const refused = async (method: string, key: string, response: Response) =>
    new BucketError(
      `the image bucket refused ${method} ${key}: ${response.status} ${(await response.text()).slice(0, 300)}`,
    );

  return {
    async put(key, bytes, contentType) {
      const response = await call("PUT", key, {
        body: bytes,
        headers: { "content-type": contentType, "cache-control": "public, max-age=31536000, immutable" },
      });
      if (!response.ok) throw await refused("PUT", key, response);
    },
    async get(key) {
      const response = await call("GET", key);
      if (response.status === 404) return null;
      if (!response.ok) throw await refused("GET", key, response);
      return Buffer.from(await response.arrayBuffer());
    },
    async delete(key) {
      const response = await call("DELETE", key);
      if (!response.ok && response.status !== 404) throw await refused("DELETE", key, response);
    },
    publicUrl: (key) => (config.publicBase ? `${config.publicBase.replace(/\/+$/, "")}/${key}` : null),
  };
}

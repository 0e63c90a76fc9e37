import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";

/** Its one account, fixed by s3rver: requests signed with any other key pair are refused. */
export const S3_TEST_KEY = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

/**
 * A real S3-compatible server on loopback (s3rver, files in a temporary folder) that checks every
 * request's Signature V4, with one bucket already made.
 */
export async function startS3Server(bucket: string) {
  const directory = mkdtempSync(path.join(os.tmpdir(), "s3-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
    vhostBuckets: false,
  });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

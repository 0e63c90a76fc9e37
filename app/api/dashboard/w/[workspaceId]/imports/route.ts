import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { z } from "zod";

import { readQuery } from "@/lib/api/read-input";
import { dashboardStreamUpload } from "@/lib/dashboard/dashboard-route";
import { payloadTooLarge } from "@/lib/http/read-body-capped";
import { MAX_IMPORT_BYTES, receiveImport } from "@/lib/imports/receive-import";

const query = z.strictObject({ name: z.string().trim().min(1).max(255) });

/** POST a CSV file's bytes (`?name=` its file name), read as they arrive; answers the new import for its mapping. */
export const POST = dashboardStreamUpload(async ({ ctx, actor, request }) => {
  const { name } = readQuery(new URL(request.url).searchParams, query, false) as z.infer<typeof query>;
  if (Number(request.headers.get("content-length")) > MAX_IMPORT_BYTES) throw payloadTooLarge(MAX_IMPORT_BYTES);
  const body: AsyncIterable<Uint8Array> = request.body
    ? Readable.fromWeb(request.body as NodeReadableStream<Uint8Array>)
    : Readable.from([]);
  return receiveImport(ctx, actor, { fileName: name, body });
});

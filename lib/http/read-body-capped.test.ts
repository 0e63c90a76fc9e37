import { describe, expect, it } from "vitest";

import { ApiError } from "@/lib/errors";
import { chunkedBody, streamInit } from "@/lib/testing/chunked-body";

import { readBodyCapped } from "./read-body-capped";

const CAP = 256 * 1024;
const CHUNK = 64 * 1024;
const post = (init: RequestInit) => new Request("http://localhost/x", { method: "POST", ...init });

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe("readBodyCapped", () => {
  it("a chunked body past the cap is refused 413 payload_too_large without being read to its end", async () => {
    const body = chunkedBody(10 * 1024 * 1024, CHUNK);
    const error = await refusal(readBodyCapped(post(streamInit(body.stream)), CAP));
    expect(error).toMatchObject({
      status: 413,
      type: "invalid_request_error",
      code: "payload_too_large",
      param: "body",
    });
    // Cap / chunk = 4 chunks fit; the fifth crosses it. Allow the stream's own read-ahead.
    expect(body.pulled()).toBeLessThanOrEqual(CAP / CHUNK + 2);
  });

  it("a small Content-Length in front of a big body does not get it through", async () => {
    const request = post({ body: "x".repeat(CAP + 1), headers: { "content-length": "10" } });
    expect(await refusal(readBodyCapped(request, CAP))).toMatchObject({ status: 413, code: "payload_too_large" });
  });

  it("a Content-Length over the cap is refused before anything is read", async () => {
    const request = post({
      ...streamInit(chunkedBody(CAP + 1, CHUNK).stream),
      headers: { "content-length": String(CAP + 1) },
    });
    expect(await refusal(readBodyCapped(request, CAP))).toMatchObject({ status: 413, code: "payload_too_large" });
    expect(request.bodyUsed).toBe(false);
  });

  it("a body of exactly the cap, chunked or not, comes back whole", async () => {
    const chunked = await readBodyCapped(post(streamInit(chunkedBody(CAP, CHUNK).stream)), CAP);
    expect(chunked.byteLength).toBe(CAP);
    const plain = await readBodyCapped(post({ body: "y".repeat(CAP) }), CAP);
    expect(new TextDecoder().decode(plain)).toBe("y".repeat(CAP));
    expect((await readBodyCapped(post({}), CAP)).byteLength).toBe(0);
  });
});

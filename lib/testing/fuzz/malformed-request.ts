import fc from "fast-check";

import { chunkedBody, streamInit } from "@/lib/testing/chunked-body";

import { BODY_DEFECTS } from "./body-defects";
import { GROUPS, publishableKeys, REQUEST_DEFECTS, secretKeys, type Defect, type MalformedRequest } from "./defects";
import type { FuzzWorld } from "./fuzz-world";
import { EXACTLY_ONE_OF, pathParamPool, validQueryValue, validValue, type Operation } from "./operations";

export const DEFECTS: Defect[] = [...REQUEST_DEFECTS, ...BODY_DEFECTS];

// Headers a client may add that must change nothing: proxies' claims, method overrides, a forged
// session, injection attempts in values that HTTP can carry (CR, LF and NUL cannot reach a handler:
// Node's parser and `Headers` refuse them before any route code).
const NOISE: [string, string][] = [
  ["x-forwarded-for", "127.0.0.1, 10.0.0.1"],
  ["x-forwarded-host", "evil.example"],
  ["forwarded", "for=1.2.3.4;host=evil.example;proto=http"],
  ["x-http-method-override", "DELETE"],
  ["x-middleware-subrequest", "middleware:middleware:middleware:middleware:middleware"],
  ["cookie", "next-auth.session-token=forged; __Secure-next-auth.session-token=forged"],
  ["accept", "text/html"],
  ["if-none-match", '"forged"'],
  ["content-encoding", "gzip"],
  ["expect", "100-continue"],
  ["user-agent", "fuzz\u0085Set-Cookie: a=b"],
  ["x-request-id", "abc%0d%0aSet-Cookie:%20a=b"],
  ["request-id", "req_forged"],
];

const wellFormed = (text: string) => {
  try {
    encodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
};

/** A request to `op` that the service should accept: workspace A's ids, defined attributes, a key the route admits. */
function baseRequest(op: Operation, world: FuzzWorld): fc.Arbitrary<MalformedRequest> {
  const keys = op.keyKinds.includes("publishable")
    ? [...secretKeys(world), ...publishableKeys(world)]
    : secretKeys(world);
  // Mostly the documented method; HEAD (which Next.js serves with GET) and OPTIONS (answered without a key) now and then.
  const method = fc.oneof(
    { weight: 85, arbitrary: fc.constant(op.method) },
    { weight: op.method === "GET" ? 12 : 0, arbitrary: fc.constant("HEAD") },
    { weight: 3, arbitrary: fc.constant("OPTIONS") },
  );
  return fc
    .record({
      method,
      key: fc.constantFrom(...keys),
      pathParams: fc.record(
        Object.fromEntries(
          op.pathParams.map((param) => [
            param,
            fc.constantFrom(
              ...pathParamPool(world, op.path, param),
              ...(pathParamPool(world, op.path, param).length ? [] : ["unknown"]),
            ),
          ]),
        ),
      ),
      query: fc.tuple(
        ...op.query.map(({ name, schema }) =>
          fc.option(validQueryValue(world, name, schema).map((value): [string, string] => [name, value])),
        ),
        op.paginated
          ? fc.option(fc.integer({ min: 1, max: 100 }).map((n): [string, string] => ["limit", String(n)]))
          : fc.constant(null),
      ),
      noise: fc.subarray(NOISE, { maxLength: 3 }),
      body: op.body ? validValue(world, op.body, "body") : fc.constant(undefined),
      kept: fc.constantFrom(...(EXACTLY_ONE_OF[`${op.method} ${op.path}`] ?? [""])),
    })
    .map(({ method, key, pathParams, query, noise, body: generated, kept }) => {
      const oneOf = EXACTLY_ONE_OF[`${op.method} ${op.path}`];
      const body = oneOf && generated ? fitOneOf(generated as Record<string, unknown>, oneOf, kept, world) : generated;
      return {
        operation: `${op.method} ${op.path}`,
        method,
        path: op.path,
        pathParams,
        query: query.filter((pair): pair is [string, string] => pair !== null),
        headers: {
          ...Object.fromEntries(noise),
          authorization: `Bearer ${key}`,
          ...(body !== undefined && method !== "OPTIONS" ? { "content-type": "application/json" } : {}),
        },
        body:
          body !== undefined && method !== "OPTIONS"
            ? { kind: "json" as const, value: body }
            : { kind: "none" as const },
        defects: [],
        kinds: [],
      };
    });
}

/** Keeps exactly `kept` of the fields of which one must be given. */
function fitOneOf(
  body: Record<string, unknown>,
  oneOf: string[],
  kept: string,
  world: FuzzWorld,
): Record<string, unknown> {
  const fitted = Object.fromEntries(Object.entries(body).filter(([name]) => !oneOf.includes(name) || name === kept));
  fitted[kept] ??= kept === "email" ? world.own.emails[0] : "example.net";
  return fitted;
}

/**
 * A request to one of the documented operations, valid but for one to three
 * defects, each of which the contract says must be refused: so the service
 * must answer it 4xx in the error shape, never 5xx, never 2xx (but to OPTIONS),
 * and write nothing. Built from the OpenAPI document's operations and schemas.
 */
export function malformedRequest(operations: Operation[], world: FuzzWorld): fc.Arbitrary<MalformedRequest> {
  return fc.constantFrom(...operations).chain((op) => {
    const applicable = DEFECTS.filter((defect) => defect.applies(op, world));
    const groups = Object.entries(GROUPS).filter(([group]) => applicable.some((defect) => defect.group === group));
    // A group by its weight, then one of its defects: the many ways to break a key do not crowd out the body's.
    const oneDefect = fc.oneof(
      ...groups.map(([group, { weight }]) => ({
        weight,
        arbitrary: fc.constantFrom(...applicable.filter((defect) => defect.group === group)),
      })),
    );
    // Mostly one defect, so that each is reached behind no other (a bad key would hide a bad body).
    const count = fc.oneof(
      { weight: 16, arbitrary: fc.constant(1) },
      { weight: 3, arbitrary: fc.constant(2) },
      { weight: 1, arbitrary: fc.constant(3) },
    );
    return fc
      .tuple(
        baseRequest(op, world),
        count.chain((n) =>
          fc.uniqueArray(oneDefect, { minLength: n, maxLength: n, selector: (defect) => defect.name }),
        ),
      )
      .chain(([base, defects]) => {
        const ordered = [...defects].sort((a, b) => GROUPS[a.group].order - GROUPS[b.group].order);
        return fc.tuple(
          fc.constant(base),
          fc.constant(ordered.map((defect) => defect.name)),
          fc.tuple(...ordered.map((defect) => defect.mutation(op, world, operations))),
        );
      })
      .map(([base, kinds, mutations]) => {
        const request: MalformedRequest = { ...JSON.parse(JSON.stringify(base)), defects: [], kinds };
        for (const apply of mutations) apply(request, op);
        if (request.method === "OPTIONS" || request.method === "GET" || request.method === "HEAD")
          request.body = { kind: "none" };
        return request;
      })
      .filter(
        (request) =>
          wellFormed(request.rawPath ?? "") &&
          Object.values(request.pathParams).every(wellFormed) &&
          request.query.every(([name, value]) => wellFormed(name) && wellFormed(value)),
      );
  });
}

const encoder = new TextEncoder();

/** The request's body as bytes, or a stream for a chunked one. */
function bodyOf(body: MalformedRequest["body"]): Uint8Array | ReadableStream<Uint8Array> | null {
  switch (body.kind) {
    case "none":
      return null;
    case "json":
      return encoder.encode(JSON.stringify(body.value));
    case "raw": {
      let text = body.text;
      if (body.deep)
        text = text.replace(
          '"@@DEEP@@"',
          () =>
            body.deep!.open.repeat(body.deep!.depth) +
            (body.deep!.open.endsWith(":") ? "1" : "") +
            body.deep!.close.repeat(body.deep!.depth),
        );
      const [before, after] =
        body.bytes && text.includes("@@BYTES@@")
          ? [text.slice(0, text.indexOf("@@BYTES@@")), text.slice(text.indexOf("@@BYTES@@") + 9)]
          : [text, ""];
      return new Uint8Array([...encoder.encode(before), ...(body.bytes ?? []), ...encoder.encode(after)]);
    }
    case "huge":
      if (body.chunked) return chunkedBody(body.size, 64 * 1024, "x").stream;
      return encoder.encode(`{"email":"${"x".repeat(body.size)}"}`);
  }
}

/** The `Request` that Next.js would hand the route for this request: path parameters percent-encoded, Content-Length as the client sent it. */
export function toRequest(request: MalformedRequest): Request {
  const path =
    request.rawPath ??
    request.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(request.pathParams[name] ?? ""));
  const query = request.query
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    .join("&");
  const headers = new Headers(request.headers);
  const body = bodyOf(request.body);
  if (body instanceof Uint8Array && !headers.has("content-length") && !headers.has("transfer-encoding"))
    headers.set("content-length", String(body.byteLength));
  const init: RequestInit = body instanceof ReadableStream ? streamInit(body) : body ? { body: body as BodyInit } : {};
  return new Request(`http://localhost:3000${path}${query ? `?${query}` : ""}`, {
    ...init,
    method: request.method,
    headers,
  });
}

/** One line for a report: the method, the path with its query, and what was broken. */
export function describeRequest(request: MalformedRequest): string {
  const url = new URL(toRequest({ ...request, body: { kind: "none" } }).url);
  return `${request.method} ${url.pathname}${url.search.slice(0, 80)} [${request.defects.join("; ")}]`;
}

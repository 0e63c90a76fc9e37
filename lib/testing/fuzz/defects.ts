import fc from "fast-check";

import type { FuzzWorld } from "./fuzz-world";
import { pathParamPool, servedMethods, type JsonSchema, type Operation } from "./operations";

/** A request as the fuzzer builds it, before it becomes a `Request`: plain data, so fast-check can print and shrink it. */
export interface MalformedRequest {
  /** The operation it was built from, `POST /v1/contacts`. */
  operation: string;
  method: string;
  path: string;
  /** Decoded values of the path's parameters; the request percent-encodes them. */
  pathParams: Record<string, string>;
  /** A path no route serves, sent as is instead of `path`. */
  rawPath?: string;
  query: [string, string][];
  headers: Record<string, string>;
  body: RequestBody;
  /** What was broken, one label per defect. */
  defects: string[];
  /** The names of the defects applied (their catalogue entries). */
  kinds: string[];
}

export type RequestBody =
  | { kind: "none" }
  | { kind: "json"; value: unknown }
  /** JSON text with markers: `"@@DEEP@@"` becomes `deep` nesting, `@@BYTES@@` the `bytes` (which may not be UTF-8). */
  | { kind: "raw"; text: string; deep?: { open: string; close: string; depth: number }; bytes?: number[] }
  /** Over the 1 MiB cap, built when sent; chunked (no Content-Length) or with one. */
  | { kind: "huge"; size: number; chunked: boolean };

export type DefectGroup = "key" | "route" | "query" | "value" | "encoding";

/** The order groups are applied in, and how often each is drawn: the body's defects most, so each is reached behind no other. */
export const GROUPS: Record<DefectGroup, { order: number; weight: number }> = {
  key: { order: 0, weight: 15 },
  route: { order: 0, weight: 15 },
  query: { order: 0, weight: 20 },
  value: { order: 1, weight: 35 },
  encoding: { order: 2, weight: 15 },
};

export type Mutation = (request: MalformedRequest, op: Operation) => void;

/**
 * One way to break a request that the contract says must be refused: each
 * one, applied to a request that is otherwise valid, makes it a 4xx whatever
 * the other defects did. Groups are applied in order: key, route and query
 * first, then the JSON value, then its encoding (which turns the value into bytes).
 */
export interface Defect {
  name: string;
  group: DefectGroup;
  applies: (op: Operation, world: FuzzWorld) => boolean;
  /** `operations`: every documented operation, for defects that need the others (which methods a path serves). */
  mutation: (op: Operation, world: FuzzWorld, operations: Operation[]) => fc.Arbitrary<Mutation>;
}

export const mutate =
  (label: string, fn: Mutation): Mutation =>
  (request, op) => {
    fn(request, op);
    request.defects.push(label);
  };
export const setKey = (request: MalformedRequest, key: string | null) => {
  if (key === null) delete request.headers.authorization;
  else request.headers.authorization = `Bearer ${key}`;
};
export const jsonBody = (request: MalformedRequest): Record<string, unknown> | null =>
  request.body.kind === "json" &&
  typeof request.body.value === "object" &&
  request.body.value !== null &&
  !Array.isArray(request.body.value)
    ? (request.body.value as Record<string, unknown>)
    : null;
/** Sets a field even when its name is `__proto__`, as JSON.parse would. */
export const setField = (object: Record<string, unknown>, name: string, value: unknown) =>
  Object.defineProperty(object, name, { value, enumerable: true, writable: true, configurable: true });

export const secretKeys = (world: FuzzWorld) => [
  ...world.keys.secret,
  ...world.keys.secretTest,
  ...world.keys.brandSecret,
];
export const publishableKeys = (world: FuzzWorld) => [
  ...world.keys.publishable,
  ...world.keys.publishableTest,
  ...world.keys.brandPublishable,
];
export const hasBody = (op: Operation) => op.body !== null;
export const bodyFields = (op: Operation, test: (name: string, schema: JsonSchema) => boolean) =>
  Object.entries(op.body?.properties ?? {}).filter(([name, schema]) => test(name, schema));
const knownQuery = (op: Operation) => [...op.query.map((q) => q.name), ...(op.paginated ? ["limit", "cursor"] : [])];
export const ID_NAMES = /_ids?$/;

/** Strings that are not an id of workspace A for the slot: B's, another kind's, never issued, or junk (NUL and SQL included). */
export const strangeIds = (world: FuzzWorld) =>
  fc.oneof(
    fc.constantFrom(
      ...world.foreign.contactIds,
      ...world.foreign.listIds,
      ...world.foreign.suppressionIds,
      ...world.foreign.topicIds,
    ),
    fc.constantFrom(
      "ct_01hzy3v1q8m0c2d5r7t9w1x3y5",
      "ls_01hzy3v1q8m0c2d5r7t9w1x3y5",
      "sup_01hzy3v1q8m0c2d5r7t9w1x3y5",
      "tp_01hzy3v1q8m0c2d5r7t9w1x3y5",
    ),
    fc.constantFrom(
      "0",
      "-1",
      "null",
      "undefined",
      "' or '1'='1",
      "ct_%",
      "a/b",
      "ct_\u0000x",
      "\u0000",
      "ü",
      "😀",
      "x".repeat(5000),
      " ct_x ",
      "%00",
    ),
    fc.string({ unit: "binary", minLength: 1, maxLength: 40 }),
  );

/** Defects of the key, the method, the path and the query string. */
export const REQUEST_DEFECTS: Defect[] = [
  // Keys and browsers.
  {
    name: "no key",
    group: "key",
    applies: () => true,
    mutation: () => fc.constant(mutate("no key", (r) => setKey(r, null))),
  },
  {
    name: "malformed Authorization",
    group: "key",
    applies: () => true,
    mutation: (_op, world) =>
      fc
        .tuple(
          fc.constantFrom(...world.keys.secret),
          fc.constantFrom(
            "Basic {b}",
            "Bearer",
            "bearer {k}",
            "Bearer  {k}",
            "Bearer {k} {k}",
            "Bearer {k},Bearer {k}",
            "Token {k}",
            "{k}",
            "Bearer\t{k}",
            "Bearer {k}\u00a0",
            "Bearer \u0085{k}",
          ),
        )
        .map(([key, template]) =>
          mutate(
            `malformed Authorization ${template}`,
            (r) =>
              (r.headers.authorization = template
                .replaceAll("{k}", key)
                .replace("{b}", Buffer.from(`${key}:`).toString("base64"))),
          ),
        ),
  },
  {
    name: "forged key",
    group: "key",
    applies: () => true,
    mutation: (_op, world) =>
      fc
        .oneof(
          fc.constantFrom(...world.keys.forged),
          fc.constantFrom(...world.keys.secret).map((key) => `${key.slice(0, -1)}${key.endsWith("A") ? "B" : "A"}`),
          fc.constantFrom(...world.keys.secret).map((key) => key.toUpperCase()),
          fc.constantFrom(
            `sk_live_${"0".repeat(46)}`,
            `sk_live_${"x".repeat(10_000)}`,
            "sk_live_é",
            "pk_test_",
            "sk_live_' or '1'='1",
          ),
        )
        .map((key) => mutate("forged key", (r) => setKey(r, key))),
  },
  {
    name: "revoked key",
    group: "key",
    applies: () => true,
    mutation: (_op, world) => fc.constant(mutate("revoked key", (r) => setKey(r, world.keys.revoked[0]!))),
  },
  {
    name: "publishable key on a secret route",
    group: "key",
    applies: (op) => !op.keyKinds.includes("publishable"),
    mutation: (_op, world) =>
      fc
        .constantFrom(...publishableKeys(world))
        .map((key) => mutate("publishable key on a secret route", (r) => setKey(r, key))),
  },
  {
    name: "secret key from a browser",
    group: "key",
    applies: () => true,
    mutation: (_op, world) =>
      fc
        .tuple(
          fc.constantFrom(...secretKeys(world)),
          fc.constantFrom("https://evil.example", "null", "https://signup.example.com"),
        )
        .map(([key, origin]) =>
          mutate(`secret key from a browser (${origin})`, (r) => {
            setKey(r, key);
            r.headers.origin = origin;
          }),
        ),
  },
  {
    name: "origin not allowed",
    group: "key",
    applies: (op) => op.keyKinds.includes("publishable"),
    mutation: (_op, world) =>
      fc
        .tuple(
          fc.constantFrom(...world.keys.allowlisted),
          fc.constantFrom(
            null,
            "https://evil.example",
            "null",
            "http://signup.example.com",
            "https://signup.example.com:444",
            "https://signup.example.com.evil.example",
          ),
        )
        .map(([{ key }, origin]) =>
          mutate(`origin not allowed (${origin})`, (r) => {
            setKey(r, key);
            if (origin === null) delete r.headers.origin;
            else r.headers.origin = origin;
          }),
        ),
  },
  {
    name: "inactive workspace",
    group: "key",
    applies: () => true,
    mutation: (_op, world) =>
      fc.constantFrom(...world.keys.inactive).map((key) => mutate("key of a deleted workspace", (r) => setKey(r, key))),
  },
  {
    name: "rate limited",
    group: "key",
    applies: () => true,
    mutation: (_op, world) =>
      fc.constant(mutate("key over its rate limit", (r) => setKey(r, world.keys.exhausted[0]!))),
  },

  // Methods and paths.
  {
    name: "method not allowed",
    group: "route",
    applies: () => true,
    mutation: (op, _world, operations) => {
      const served = servedMethods(operations, op.path);
      const others = ["GET", "POST", "PUT", "PATCH", "DELETE", ...(served.includes("GET") ? [] : ["HEAD"])].filter(
        (method) => !served.includes(method),
      );
      return fc.constantFrom(...others).map((method) =>
        mutate(`method ${method}`, (r) => {
          r.method = method;
          if (method === "GET" || method === "HEAD") r.body = { kind: "none" };
        }),
      );
    },
  },
  {
    name: "unknown path",
    group: "route",
    applies: () => true,
    mutation: (op) =>
      fc
        .oneof(
          fc
            .stringMatching(/^[a-z][a-z0-9_-]{0,11}$/)
            .filter(
              (segment) =>
                !["contacts", "topics", "lists", "suppressions", "subscribe", "reports", "openapi"].includes(segment),
            )
            .map((segment) => `/v1/${segment}`),
          fc.constantFrom(
            "/v1/Contacts",
            "/v1/contacts/x/y",
            "/v1/lists/x",
            "/v1/lists/x/members/y",
            "/v1/reports",
            "/v1/reports/summary/x",
            "/v1/subscribe/x",
            "/v1/topics/x",
            `${op.path.replace(/\{\w+\}/g, "x")}/x`,
          ),
        )
        .map((path) => mutate(`unknown path ${path}`, (r) => (r.rawPath = path))),
  },
  {
    name: "foreign or unknown id in the path",
    group: "route",
    applies: (op) => op.pathParams.length > 0,
    mutation: (op, world) =>
      fc.tuple(fc.constantFrom(...op.pathParams), strangeIds(world)).map(([param, id]) =>
        mutate(`path ${param} ${JSON.stringify(id.slice(0, 40))}`, (r) => {
          if (!pathParamPool(world, op.path, param).includes(id)) r.pathParams[param] = id;
        }),
      ),
  },

  // Query strings.
  {
    name: "unknown query parameter",
    group: "query",
    applies: () => true,
    mutation: (op) =>
      fc
        .tuple(
          fc.oneof(
            fc.stringMatching(/^[a-z_]{1,10}$/),
            fc.constantFrom(
              "__proto__",
              "constructor",
              "toString",
              "LIMIT",
              "Status",
              "topic_id[]",
              "",
              "limit ",
              "\u0000",
            ),
          ),
          fc.string({ maxLength: 10 }),
        )
        .filter(([name]) => !knownQuery(op).includes(name))
        .map(([name, value]) =>
          mutate(`unknown query parameter ${JSON.stringify(name)}`, (r) => r.query.push([name, value])),
        ),
  },
  {
    name: "repeated query parameter",
    group: "query",
    applies: (op) => knownQuery(op).length > 0,
    mutation: (op, world) =>
      fc.constantFrom(...knownQuery(op)).map((name) =>
        mutate(`repeated query parameter ${name}`, (r) => {
          const value =
            name === "limit"
              ? "5"
              : name === "cursor"
                ? world.cursors[0]!.cursor
                : ((op.query.find((q) => q.name === name)?.schema.enum?.[0] as string | undefined) ?? "2026-01-01");
          r.query = r.query.filter(([n]) => n !== name);
          r.query.push([name, value], [name, value]);
        }),
      ),
  },
  {
    name: "bad limit",
    group: "query",
    applies: (op) => op.paginated,
    mutation: () =>
      fc
        .constantFrom(
          "0",
          "101",
          "-1",
          "abc",
          "",
          "1.5",
          "1e2",
          " 5",
          "5 ",
          "1000",
          "99999999999999999999",
          "NaN",
          "Infinity",
          "٣",
          "0x10",
          "\u0000",
        )
        .map((limit) =>
          mutate(`limit ${JSON.stringify(limit)}`, (r) => {
            r.query = r.query.filter(([n]) => n !== "limit");
            r.query.push(["limit", limit]);
          }),
        ),
  },
  {
    name: "bad cursor",
    group: "query",
    applies: (op) => op.paginated,
    mutation: (op, world) =>
      fc
        .oneof(
          // Another route's cursor, or one of workspace B's for any route.
          fc.constantFrom(...world.cursors.filter((c) => c.path !== op.path || !c.own).map((c) => c.cursor)),
          // A cursor with one character of its signature changed.
          fc
            .constantFrom(...world.cursors.map((c) => c.cursor))
            .map((cursor) => `${cursor.slice(0, -1)}${cursor.endsWith("A") ? "B" : "A"}`),
          fc.constantFrom("", ".", "a.b", "a.b.c", "null", "eyJhIjoiY3RfMSJ9.", "\u0000"),
          fc.string({ unit: "binary", maxLength: 60 }),
        )
        .map((cursor) =>
          mutate(`cursor ${JSON.stringify(cursor.slice(0, 30))}`, (r) => {
            r.query = r.query.filter(([n]) => n !== "cursor");
            r.query.push(["cursor", cursor]);
          }),
        ),
  },
  {
    name: "bad query value",
    group: "query",
    applies: (op) => op.query.some((q) => q.schema.enum || ID_NAMES.test(q.name)),
    mutation: (op, world) => {
      const params = op.query.filter((q) => q.schema.enum || ID_NAMES.test(q.name));
      return fc
        .constantFrom(...params)
        .chain((param) =>
          (param.schema.enum
            ? fc.constantFrom("", "SUBSCRIBED", "subscribed ", "year", "all", "day,week", "\u0000")
            : fc
                .oneof(
                  fc.constantFrom(
                    ...world.foreign.topicIds,
                    ...world.own.archivedTopicIds,
                    "tp_01hzy3v1q8m0c2d5r7t9w1x3y5",
                    "",
                    "x".repeat(101),
                    "tp_\u0000",
                  ),
                )
                .filter((value) => !world.own.topicIds.includes(value))
          ).map((value) => [param.name, value] as const),
        )
        .map(([name, value]) =>
          mutate(`query ${name}=${JSON.stringify(value.slice(0, 30))}`, (r) => {
            r.query = r.query.filter(([n]) => n !== name);
            r.query.push([name, value]);
          }),
        );
    },
  },
  {
    name: "topic of another brand in the query",
    group: "query",
    applies: (op) => op.query.some((q) => q.name === "topic_id"),
    mutation: (_op, world) =>
      fc.constantFrom(...world.keys.brandSecret.slice(0, 4)).map((key) =>
        mutate("topic_id of another brand with a brand-scoped key", (r) => {
          setKey(r, key);
          r.query = [...r.query.filter(([n]) => n !== "topic_id"), ["topic_id", world.own.otherBrandTopicIds[0]!]];
        }),
      ),
  },
  {
    name: "bad report window",
    group: "query",
    applies: (op) => op.query.some((q) => q.name === "from"),
    mutation: (op) =>
      fc
        .oneof(
          fc
            .tuple(
              fc.constantFrom("from", "to"),
              fc.constantFrom(
                "yesterday",
                "2026-13-01",
                "2026-02-30",
                "2026-01-01T25:00:00Z",
                "",
                "0",
                "2026-1-1",
                "+02026-01-01",
                "2026-01-01T00:00:00",
                "2026-01-01T00:00:00.000Zjunk",
                "\u0000",
              ),
            )
            .map(([name, value]) => [[name, value]]),
          fc.constant([
            ["from", "2026-02-01"],
            ["to", "2026-01-01"],
          ]),
          fc.constant([
            ["from", "2026-01-01T00:00:00Z"],
            ["to", "2026-01-01"],
          ]),
          ...(op.query.some((q) => q.name === "interval")
            ? [
                fc.constant([
                  ["from", "2000-01-01"],
                  ["to", "2026-01-01"],
                  ["interval", "day"],
                ]),
              ]
            : []),
        )
        .map((pairs) =>
          mutate(`window ${pairs.map(([n, v]) => `${n}=${JSON.stringify(v)}`).join("&")}`, (r) => {
            r.query = [
              ...r.query.filter(([n]) => !pairs.some(([name]) => name === n)),
              ...(pairs as [string, string][]),
            ];
          }),
        ),
  },
  {
    name: "body on a route that takes none",
    group: "route",
    applies: (op) => !hasBody(op),
    mutation: () =>
      fc
        .constantFrom<Record<string, string>>(
          { "content-length": "2" },
          { "content-length": "99999999" },
          { "transfer-encoding": "chunked" },
          { "content-type": "application/json", "content-length": "17" },
        )
        .map((headers) => mutate(`body headers ${JSON.stringify(headers)}`, (r) => Object.assign(r.headers, headers))),
  },
];

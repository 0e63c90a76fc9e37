import { z } from "zod";

import { SIGNATURE_HEADER } from "@/lib/webhooks/signature";

import { HTTP_METHODS } from "../methods-not-allowed";
import { BUCKET_LIMITS } from "../rate-limit";
import { REQUEST_ID_HEADER } from "../request-log";
import { errorBody } from "../response-schemas";
import type { RouteSpec } from "../route-doc";

type Json = Record<string, unknown>;

/** A /v1 path in OpenAPI form (`/v1/contacts/{id}`) and the route module that serves it. */
export interface DocumentedPath {
  path: string;
  module: Record<string, unknown>;
}

/**
 * Schemas become OpenAPI 3.1 Schema Objects, which are JSON Schema 2020-12:
 * zod's own converter, so the document and the validation share one source.
 * Named schemas (`.meta({ id })`) move to components and are referenced.
 */
class SchemaSet {
  readonly components: Record<string, Json> = {};

  convert(schema: z.ZodType, io: "input" | "output"): Json {
    const {
      $schema: _drop,
      $defs,
      ...rest
    } = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as Json & {
      $defs?: Record<string, Json>;
    };
    for (const [id, def] of Object.entries($defs ?? {})) this.components[id] = this.relink(def);
    return this.relink(rest);
  }

  private relink(value: Json): Json {
    return JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', '"#/components/schemas/'));
  }
}

/** Every error a route can answer: those the pipeline shares, then the route's own. */
export function documentedErrors(spec: RouteSpec): { status: number; code: string; when: string }[] {
  return [...pipelineErrors(spec), ...(spec.doc.errors ?? [])];
}

// The failures every route shares, from the pipeline rather than the route itself.
function pipelineErrors(spec: RouteSpec): { status: number; code: string; when: string }[] {
  return [
    { status: 401, code: "missing_api_key", when: "No `Authorization: Bearer` header, or a malformed one." },
    { status: 401, code: "invalid_api_key", when: "An unknown or revoked key." },
    ...(spec.key === "secret"
      ? [
          {
            status: 403,
            code: "publishable_key_not_allowed",
            when: "A publishable key: only POST /v1/subscribe takes one.",
          },
        ]
      : []),
    {
      status: 403,
      code: "secret_key_in_browser",
      when: "A secret key sent from a browser (the request has an Origin).",
    },
    {
      status: 403,
      code: "team_inactive",
      when: "The workspace cannot act now, usually because of billing (reads keep working while it is read-only).",
    },
    {
      status: 405,
      code: "method_not_allowed",
      when: "A method this path does not serve; `Allow` lists those it does.",
    },
    {
      status: 429,
      code: "rate_limited",
      when: `More than ${BUCKET_LIMITS[spec.bucket]} requests in a minute for this key; wait \`Retry-After\` seconds.`,
    },
    {
      status: 400,
      code: "validation_failed",
      when: spec.body
        ? "The body is not a JSON object of the documented fields (`param` names the field), or has the wrong Content-Type."
        : "An unknown query parameter, a bad value, or a body on a request that takes none.",
    },
    ...(spec.body
      ? [{ status: 413, code: "payload_too_large", when: "A body over 1 MiB (refused without being read to its end)." }]
      : []),
    ...(spec.paginated
      ? [
          { status: 400, code: "invalid_limit", when: "`limit` is not an integer from 1 to 100." },
          {
            status: 400,
            code: "invalid_cursor",
            when: "`cursor` was not issued by the service for this list and these filters.",
          },
        ]
      : []),
    {
      status: 500,
      code: "internal_error",
      when: "A fault on our side, logged under the Request-Id; retry with backoff.",
    },
  ];
}

const header = (description: string, schema: Json = { type: "string" }) => ({ description, schema });
// Headers every answer shares live once in components and are referenced.
const SHARED_HEADERS = {
  [REQUEST_ID_HEADER]: header("This answer's id: quote it when reporting a problem."),
  "RateLimit-Limit": header("Requests allowed per minute in this route's bucket.", { type: "integer" }),
  "RateLimit-Remaining": header("Requests left in the current window.", { type: "integer" }),
  "RateLimit-Reset": header("Seconds until the window resets.", { type: "integer" }),
};
const COMMON_HEADERS = Object.fromEntries(
  Object.keys(SHARED_HEADERS).map((name) => [name, { $ref: `#/components/headers/${name}` }]),
);

function operation(schemas: SchemaSet, method: string, path: string, spec: RouteSpec): Json {
  const { doc } = spec;
  const parameters: Json[] = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: "path",
    required: true,
    schema: { type: "string" },
  }));
  if (spec.query) {
    const query = schemas.convert(spec.query, "input") as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, schema] of Object.entries(query.properties ?? {})) {
      parameters.push({
        name,
        in: "query",
        required: query.required?.includes(name) ?? false,
        schema,
        ...(doc.example?.query?.[name] ? { example: doc.example.query[name] } : {}),
      });
    }
  }
  if (spec.paginated) {
    parameters.push(
      {
        name: "limit",
        in: "query",
        required: false,
        schema: { type: "integer", minimum: 1, maximum: 100, default: 20 },
      },
      {
        name: "cursor",
        in: "query",
        required: false,
        description: "`meta.next_cursor` of the previous page, unchanged, with the same filters.",
        schema: { type: "string" },
      },
    );
  }
  if (doc.etag)
    parameters.push({
      name: "If-None-Match",
      in: "header",
      required: false,
      description: "An `ETag` from an earlier answer: 304 while nothing changed.",
      schema: { type: "string" },
    });

  const responses: Record<string, Json> = {};
  for (const [status, response] of Object.entries(doc.responses)) {
    responses[status] = {
      description: response.description,
      headers: {
        ...COMMON_HEADERS,
        ...(doc.etag ? { ETag: header("The figures' version, for `If-None-Match`.") } : {}),
      },
      content: { "application/json": { schema: schemas.convert(response.schema, "output") } },
    };
  }
  if (doc.etag)
    responses["304"] = {
      description: "Not modified: nothing changed since the `ETag` given. No body; counts against the rate limit.",
      headers: { ETag: header("The same version.") },
    };
  const errorSchema = schemas.convert(errorBody, "output");
  const byStatus = new Map<number, string[]>();
  for (const error of documentedErrors(spec))
    byStatus.set(error.status, [...(byStatus.get(error.status) ?? []), `\`${error.code}\`: ${error.when}`]);
  for (const [status, lines] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = {
      description: lines.join("\n\n"),
      headers: {
        [REQUEST_ID_HEADER]: COMMON_HEADERS[REQUEST_ID_HEADER],
        ...(status === 429 ? { "Retry-After": header("Seconds to wait.", { type: "integer" }) } : {}),
        ...(status === 405 ? { Allow: header("The methods this path serves.") } : {}),
      },
      content: { "application/json": { schema: errorSchema } },
    };
  }

  const keys =
    spec.key === "any"
      ? "a secret key (`sk_…`) or a publishable key (`pk_…`, from an allowed origin)"
      : "a secret key (`sk_…`)";
  return {
    operationId: `${method.toLowerCase()}${path
      .replace(/^\/v1/, "")
      .replace(/\{(\w+)\}/g, "By_$1")
      .split("/")
      .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
      .join("")}`,
    summary: doc.summary,
    description: [
      doc.description,
      `Takes ${keys}. Rate limit: ${BUCKET_LIMITS[spec.bucket]} requests per minute per key (bucket \`${spec.bucket}\`).`,
    ]
      .filter(Boolean)
      .join("\n\n"),
    tags: [path.split("/")[2]],
    security: [{ apiKey: [] }],
    "x-key-kinds": spec.key === "any" ? ["secret", "publishable"] : ["secret"],
    "x-rate-limit": { bucket: spec.bucket, per_minute: BUCKET_LIMITS[spec.bucket] },
    ...(parameters.length ? { parameters } : {}),
    ...(spec.body
      ? {
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: schemas.convert(spec.body, "input"),
                ...(doc.example?.body ? { example: doc.example.body } : {}),
              },
            },
          },
        }
      : {}),
    responses,
  };
}

/** An event the service POSTs to the sender's endpoints, as OpenAPI `webhooks` describe it. */
export interface DocumentedWebhook {
  type: string;
  fires: string;
  body: z.ZodType;
}

function webhook(schemas: SchemaSet, event: DocumentedWebhook): Json {
  return {
    post: {
      operationId: `webhook${event.type
        .split(/[._]/)
        .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
        .join("")}`,
      summary: event.type,
      description: `${event.fires}\n\nVerify \`${SIGNATURE_HEADER}\` over the raw body before trusting it; answer 2xx within 10 seconds, or the delivery is retried.`,
      parameters: [
        {
          name: SIGNATURE_HEADER,
          in: "header",
          required: true,
          description:
            '`t=<milliseconds since epoch>,v1=<hex HMAC-SHA256 of "{t}.{raw body}" with the endpoint\'s signing secret>`. Compare in constant time; refuse a `t` more than 5 minutes away.',
          schema: { type: "string" },
        },
      ],
      requestBody: {
        required: true,
        content: { "application/json": { schema: schemas.convert(event.body, "output") } },
      },
      responses: {
        "2XX": { description: "Received. Any other answer, or none within 10 seconds, is retried." },
        "401": { description: "The signature did not verify." },
      },
    },
  };
}

/** The OpenAPI 3.1 document of /v1, built from the routes' own schemas and descriptions, and its webhooks from theirs. */
export function buildOpenApi(paths: DocumentedPath[], extra: { webhooks: DocumentedWebhook[]; version: string }): Json {
  const schemas = new SchemaSet();
  const documented: Record<string, Json> = {};
  for (const { path, module } of paths) {
    const item: Json = {};
    for (const method of HTTP_METHODS) {
      const spec = (module[method] as { spec?: RouteSpec } | undefined)?.spec;
      if (spec) item[method.toLowerCase()] = operation(schemas, method, path, spec);
    }
    documented[path] = item;
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Mail service API",
      version: extra.version,
      description:
        "Contacts, consent, lists, suppressions and reports of one workspace. Every request carries `Authorization: Bearer <key>`; every answer is JSON, and every error `{ error: { type, code, message, param? } }`. Lists are paginated with `limit` and `cursor`. Test keys (`sk_test_…`) act on the same data but never mail anyone and fire no webhooks.",
    },
    servers: [{ url: "/", description: "This installation" }],
    security: [{ apiKey: [] }],
    paths: documented,
    webhooks: Object.fromEntries(extra.webhooks.map((event) => [event.type, webhook(schemas, event)])),
    components: {
      headers: SHARED_HEADERS,
      securitySchemes: {
        apiKey: {
          type: "http",
          scheme: "bearer",
          description: "A secret key `sk_live_…`/`sk_test_…`, or on POST /v1/subscribe a publishable key `pk_…`.",
        },
      },
      schemas: Object.fromEntries(Object.entries(schemas.components).sort(([a], [b]) => a.localeCompare(b))),
    },
  };
}

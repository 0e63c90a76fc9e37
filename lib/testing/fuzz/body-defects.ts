import fc from "fast-check";

import { bodyFields, hasBody, jsonBody, mutate, setField, setKey, type Defect, type MalformedRequest } from "./defects";
import type { FuzzWorld } from "./fuzz-world";
import { typesOf, type JsonSchema, type Operation } from "./operations";

const MiB = 1024 * 1024;
const OTHER_TYPES: [string, unknown][] = [
  ["string", "x"],
  ["number", 1],
  ["number", -0.5],
  ["boolean", true],
  ["null", null],
  ["object", {}],
  ["object", { a: 1 }],
  ["array", []],
  ["array", ["x"]],
];

const isString = (schema: JsonSchema) => typesOf(schema).includes("string") && !schema.enum;
const isOp = (method: string, path: string) => (op: Operation) => op.method === method && op.path === path;

/** A JSON body's string leaves (fields, array items, attribute values), as setters. */
function stringSlots(request: MalformedRequest): ((change: (value: string) => string) => void)[] {
  const body = jsonBody(request);
  if (!body) return [];
  const slots: ((change: (value: string) => string) => void)[] = [];
  const visit = (holder: Record<string, unknown> | unknown[], key: string | number) => {
    const value = (holder as Record<string, unknown>)[key];
    if (typeof value === "string") slots.push((change) => ((holder as Record<string, unknown>)[key] = change(value)));
    else if (Array.isArray(value)) value.forEach((_, index) => visit(value, index));
    else if (value && typeof value === "object")
      Object.keys(value).forEach((k) => visit(value as Record<string, unknown>, k));
  };
  Object.keys(body).forEach((key) => visit(body, key));
  return slots;
}

/** For each field with a length rule, values that break it: one past the maximum, far past it, empty or blank below a minimum. */
function lengthBreakers(op: Operation, world: FuzzWorld): [string, unknown[]][] {
  return bodyFields(op, () => true)
    .map(([name, field]): [string, unknown[]] => {
      const schema = field.anyOf?.find((option) => option.type !== "null") ?? field;
      const choices: unknown[] = [];
      if (schema.maxLength !== undefined)
        choices.push(
          name === "email" ? `${"a".repeat(schema.maxLength)}@example.com` : "x".repeat(schema.maxLength + 1),
          "x".repeat(schema.maxLength + 5000),
        );
      if (schema.minLength) choices.push("", "   ");
      const item = name === "contact_ids" ? world.own.contactIds[0]! : world.own.topicIds[0]!;
      if (schema.maxItems !== undefined) choices.push(Array.from({ length: schema.maxItems + 1 }, () => item));
      if (schema.minItems) choices.push([]);
      return [name, choices];
    })
    .filter(([, choices]) => choices.length > 0);
}

/** Serialises the JSON body (once) so that an encoding defect can work on its text. */
function asRaw(request: MalformedRequest): Extract<MalformedRequest["body"], { kind: "raw" }> | null {
  if (request.body.kind === "json") request.body = { kind: "raw", text: JSON.stringify(request.body.value) };
  return request.body.kind === "raw" ? request.body : null;
}

/** Defects of the JSON value, then of its encoding. */
export const BODY_DEFECTS: Defect[] = [
  {
    name: "not a JSON object",
    group: "value",
    applies: hasBody,
    mutation: () =>
      fc
        .constantFrom<unknown>([], [1], "x", 1, null, true, [{ email: "ada@example.com" }])
        .map((value) => mutate(`body ${JSON.stringify(value)}`, (r) => (r.body = { kind: "json", value }))),
  },
  {
    name: "unknown field",
    group: "value",
    applies: hasBody,
    mutation: (op) =>
      fc
        .tuple(
          fc.oneof(
            fc.stringMatching(/^[a-z_]{1,12}$/),
            fc.constantFrom(
              "__proto__",
              "constructor",
              "prototype",
              "toString",
              "EMAIL",
              "Email",
              "email ",
              "",
              "topic_ids[]",
              "\u0000",
            ),
          ),
          fc.constantFrom<unknown>(1, "x", null, {}, []),
        )
        .filter(([name]) => !(name in op.body!.properties))
        .map(([name, value]) =>
          mutate(`unknown field ${JSON.stringify(name)}`, (r) => jsonBody(r) && setField(jsonBody(r)!, name, value)),
        ),
  },
  {
    name: "missing required field",
    group: "value",
    applies: (op) => (op.body?.required ?? []).length > 0,
    mutation: (op) =>
      fc
        .constantFrom(...op.body!.required!)
        .map((name) => mutate(`missing ${name}`, (r) => jsonBody(r) && delete jsonBody(r)![name])),
  },
  {
    name: "wrong type",
    group: "value",
    applies: hasBody,
    mutation: (op) =>
      fc
        .constantFrom(...bodyFields(op, () => true))
        .chain(([name, schema]) => {
          const itemTypes = schema.items ? typesOf(schema.items) : null;
          const wrong = OTHER_TYPES.filter(([type]) => !typesOf(schema).includes(type)).map(([, value]) => ({
            value,
            label: JSON.stringify(value),
          }));
          const wrongItems = itemTypes
            ? OTHER_TYPES.filter(([type]) => !itemTypes.includes(type)).map(([, value]) => ({
                value: [value],
                label: `[${JSON.stringify(value)}]`,
              }))
            : [];
          return fc.constantFrom(...wrong, ...wrongItems).map((choice) => [name, choice] as const);
        })
        .map(([name, { value, label }]) =>
          mutate(`${name}: ${label}`, (r) => jsonBody(r) && setField(jsonBody(r)!, name, value)),
        ),
  },
  {
    name: "too long or too short",
    group: "value",
    applies: (op, world) => lengthBreakers(op, world).length > 0,
    mutation: (op, world) =>
      fc
        .constantFrom(...lengthBreakers(op, world))
        .chain(([name, choices]) => fc.constantFrom(...choices).map((value) => [name, value] as const))
        .map(([name, value]) =>
          mutate(
            `${name} of length ${Array.isArray(value) ? value.length : String(value).length}`,
            (r) => jsonBody(r) && setField(jsonBody(r)!, name, value),
          ),
        ),
  },
  {
    name: "invalid email",
    group: "value",
    applies: (op) => "email" in (op.body?.properties ?? {}),
    mutation: () =>
      fc
        .constantFrom(
          "",
          "a",
          "a@",
          "@example.com",
          "a@b",
          "a b@example.com",
          "a@@example.com",
          "a@-example.com",
          "a@example..com",
          "a@1.2.3.4",
          "a.@example.com",
          "<a@example.com>",
          "\u0000@example.com",
          `${"x".repeat(65)}@example.com`,
          "a@exa_mple.com",
        )
        .map((email) => mutate(`email ${JSON.stringify(email)}`, (r) => jsonBody(r) && (jsonBody(r)!.email = email))),
  },
  {
    name: "invalid domain",
    group: "value",
    applies: (op) => "domain" in (op.body?.properties ?? {}),
    mutation: () =>
      fc
        .constantFrom(
          "",
          "example",
          "http://example.com",
          "example.com/x",
          "-example.com",
          "example..com",
          "exa mple.com",
          "1.2.3.4",
          "example.com:25",
          "*.example.com",
          `${"x".repeat(64)}.com`,
        )
        .map((domain) =>
          mutate(`domain ${JSON.stringify(domain)}`, (r) => jsonBody(r) && (jsonBody(r)!.domain = domain)),
        ),
  },
  {
    name: "bad attributes",
    group: "value",
    applies: (op) => "attributes" in (op.body?.properties ?? {}),
    mutation: () =>
      fc
        .constantFrom<[string, Record<string, unknown>]>(
          ["51 attributes", Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`a${i}`, "x"]))],
          ["undefined attribute", { nope: "x" }],
          ["__proto__ attribute", JSON.parse('{"__proto__": {"plan": "pro"}}')],
          ["plan: 5", { plan: 5 }],
          ["plan too long", { plan: "x".repeat(2001) }],
          ["seats: many", { seats: "many" }],
          ["seats: Infinity-like", { seats: "1e400" }],
          ["vip: yes", { vip: "yes" }],
          ["renews_on: tomorrow", { renews_on: "tomorrow" }],
          ["renews_on: 2026-13-01", { renews_on: "2026-13-01" }],
        )
        .map(([label, attributes]) =>
          mutate(`attributes ${label}`, (r) => jsonBody(r) && setField(jsonBody(r)!, "attributes", attributes)),
        ),
  },
  {
    name: "topic of another workspace",
    group: "value",
    applies: (op) => bodyFields(op, (name) => name === "topic_id" || name === "topic_ids").length > 0,
    mutation: (_op, world) =>
      fc
        .constantFrom(
          ...world.foreign.topicIds,
          ...world.own.archivedTopicIds,
          "tp_01hzy3v1q8m0c2d5r7t9w1x3y5",
          world.own.listIds[0]!,
        )
        .map((topic) =>
          mutate(`topic ${topic}`, (r) => {
            const body = jsonBody(r);
            if (body && "topic_ids" in body)
              body.topic_ids = [...(Array.isArray(body.topic_ids) ? body.topic_ids : []), topic];
            else if (body) body.topic_id = topic;
          }),
        ),
  },
  {
    name: "topic of another brand",
    group: "value",
    applies: (op) => bodyFields(op, (name) => name === "topic_id" || name === "topic_ids").length > 0,
    mutation: (op, world) =>
      fc
        .constantFrom(
          ...world.keys.brandSecret.slice(0, 4),
          ...(op.keyKinds.includes("publishable") ? world.keys.brandPublishable.slice(0, 4) : []),
        )
        .map((key) =>
          mutate("topic of another brand with a brand-scoped key", (r) => {
            const body = jsonBody(r);
            if (!body) return;
            setKey(r, key);
            if ("topic_ids" in body || !("topic_id" in op.body!.properties))
              body.topic_ids = [world.own.otherBrandTopicIds[0]!];
            else body.topic_id = world.own.otherBrandTopicIds[0]!;
          }),
        ),
  },
  {
    name: "contact of another workspace",
    group: "value",
    applies: (op) => "contact_ids" in (op.body?.properties ?? {}),
    mutation: (_op, world) =>
      fc
        .constantFrom(
          ...world.foreign.contactIds,
          "ct_01hzy3v1q8m0c2d5r7t9w1x3y5",
          world.own.listIds[0]!,
          world.own.topicIds[0]!,
        )
        .map((id) =>
          mutate(`contact ${id}`, (r) => {
            const body = jsonBody(r);
            if (body) body.contact_ids = [...(Array.isArray(body.contact_ids) ? body.contact_ids : []), id];
          }),
        ),
  },
  {
    name: "NUL in a string",
    group: "value",
    applies: (op) => bodyFields(op, (_, s) => isString(s) || s.type === "array" || s.type === "object").length > 0,
    mutation: () =>
      fc.tuple(fc.nat(), fc.nat()).map(([slot, at]) =>
        mutate("NUL in a string", (r) => {
          const slots = stringSlots(r);
          if (slots.length === 0) {
            const body = jsonBody(r);
            if (body) body.email = "nul\u0000@example.com";
            return;
          }
          slots[slot % slots.length]!(
            (value) => `${value.slice(0, at % (value.length + 1))}\u0000${value.slice(at % (value.length + 1))}`,
          );
        }),
      ),
  },
  {
    name: "unsubscribed contact",
    group: "value",
    applies: isOp("POST", "/v1/contacts"),
    mutation: (_op, world) =>
      fc
        .constantFrom(...world.own.unsubscribedEmails)
        .map((email) =>
          mutate("address of an unsubscribed contact", (r) => jsonBody(r) && (jsonBody(r)!.email = email)),
        ),
  },
  {
    name: "email and domain, or neither",
    group: "value",
    applies: isOp("POST", "/v1/suppressions"),
    mutation: () =>
      fc.constantFrom("both", "neither").map((which) =>
        mutate(`suppression with ${which}`, (r) => {
          const body = jsonBody(r);
          if (!body) return;
          delete body.email;
          delete body.domain;
          if (which === "both") Object.assign(body, { email: "x@example.com", domain: "example.com" });
        }),
      ),
  },
  {
    name: "list of another brand",
    group: "route",
    applies: (op) => op.path === "/v1/lists/{id}/members",
    mutation: (_op, world) =>
      fc.constantFrom(...world.keys.brandSecret.slice(0, 4)).map((key) =>
        mutate("list of another brand with a brand-scoped key", (r) => {
          setKey(r, key);
          r.pathParams.id = world.own.otherBrandListIds[0]!;
        }),
      ),
  },
  {
    name: "complaint suppression",
    group: "route",
    applies: isOp("DELETE", "/v1/suppressions/{id}"),
    mutation: (_op, world) =>
      fc
        .constantFrom(...world.own.complaintSuppressionIds)
        .map((id) => mutate("a complaint suppression", (r) => (r.pathParams.id = id))),
  },

  // Encoding: these turn the JSON value into text or bytes.
  {
    name: "wrong content type",
    group: "encoding",
    applies: hasBody,
    mutation: () =>
      fc
        .constantFrom(
          null,
          "text/plain",
          "application/x-www-form-urlencoded",
          "multipart/form-data; boundary=x",
          "application/jsonp",
          "application/json-patch+json",
          "application/xml",
          "json",
          "text/json",
          "application/javascript",
        )
        .map((type) =>
          mutate(`content-type ${type}`, (r) => {
            if (type === null) delete r.headers["content-type"];
            else r.headers["content-type"] = type;
          }),
        ),
  },
  {
    name: "not JSON",
    group: "encoding",
    applies: hasBody,
    mutation: () =>
      fc
        .oneof(
          fc.constantFrom(
            "",
            "{",
            "{'email':'a@example.com'}",
            '{"email":"a@example.com",}',
            "NaN",
            "undefined",
            '{"a":1}garbage',
            "// c\n{}",
            "[1,2",
            '{"email": "a@example.com"',
            '{"email":"\\x41"}',
            '{"email":"\\ud800"}x',
          ),
          fc.string({ maxLength: 30 }).filter((text) => {
            try {
              JSON.parse(text);
              return false;
            } catch {
              return true;
            }
          }),
        )
        .map((text) =>
          mutate(`not JSON ${JSON.stringify(text.slice(0, 20))}`, (r) => (r.body = { kind: "raw", text })),
        ),
  },
  {
    name: "invalid UTF-8",
    group: "encoding",
    applies: hasBody,
    mutation: () =>
      fc
        .tuple(
          fc.constantFrom(
            [0xc3, 0x28],
            [0xff],
            [0xed, 0xa0, 0x80],
            [0xc0, 0xaf],
            [0xf8, 0x88, 0x80, 0x80, 0x80],
            [0x80],
            [0xe2, 0x82],
            [0xf4, 0x90, 0x80, 0x80],
          ),
          fc.nat(),
        )
        .map(([bytes, slot]) =>
          mutate(`invalid UTF-8 ${bytes.map((b) => b.toString(16)).join(" ")}`, (r) => {
            const slots = stringSlots(r);
            slots[slot % Math.max(slots.length, 1)]?.((value) => `@@BYTES@@${value}`);
            const raw = asRaw(r);
            if (!raw) return;
            if (!raw.text.includes("@@BYTES@@")) raw.text = `@@BYTES@@${raw.text}`;
            raw.bytes = [...bytes];
          }),
        ),
  },
  {
    name: "raw NUL byte",
    group: "encoding",
    applies: hasBody,
    mutation: () =>
      fc.nat().map((at) =>
        mutate("raw NUL byte", (r) => {
          const raw = asRaw(r);
          if (!raw) return;
          const position = at % (raw.text.length + 1);
          raw.text = `${raw.text.slice(0, position)}@@BYTES@@${raw.text.slice(position)}`;
          raw.bytes = [0];
        }),
      ),
  },
  {
    name: "deep nesting",
    group: "encoding",
    applies: hasBody,
    mutation: (op) =>
      fc
        .tuple(
          fc.constantFrom(...Object.keys(op.body!.properties), "attributes.nope", "extra"),
          fc.constantFrom({ open: "[", close: "]" }, { open: '{"a":', close: "}" }, { open: '[{"a":', close: "}]" }),
          fc.constantFrom(1000, 100_000),
        )
        .map(([where, { open, close }, depth]) =>
          mutate(`${depth} levels of ${open} in ${where}`, (r) => {
            const body = jsonBody(r);
            if (body && where === "attributes.nope") setField(body, "attributes", { nope: "@@DEEP@@" });
            else if (body) setField(body, where, "@@DEEP@@");
            const raw = asRaw(r);
            if (raw) raw.deep = { open, close, depth };
          }),
        ),
  },
  {
    name: "huge body",
    group: "encoding",
    applies: hasBody,
    mutation: () =>
      fc.oneof(
        fc
          .tuple(fc.constantFrom(MiB + 1, MiB + 1000, 2 * MiB, 16 * MiB), fc.boolean())
          .map(([size, chunked]) =>
            mutate(`${size} bytes${chunked ? " chunked" : ""}`, (r) => (r.body = { kind: "huge", size, chunked })),
          ),
        fc.constant(
          mutate("Content-Length of 1 TiB", (r) => (r.headers["content-length"] = String(1024 * 1024 * MiB))),
        ),
      ),
  },
];

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { createList } from "@/lib/lists/create-list";
import { createSuppression } from "@/lib/suppressions/create-suppression";
import { callApi } from "@/lib/testing/api-client";
import { seedKey, seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { GET as openapiJson } from "./openapi.json/route";
import { v1Document } from "./v1-document";
import { V1_ROUTES } from "./v1-routes";

const { ctx } = testCtx();

type Operation = {
  requestBody?: { content: { "application/json": { example?: unknown } } };
  parameters?: { name: string; in: string; example?: string }[];
  responses: Record<string, unknown>;
};
const document = v1Document() as {
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, unknown>;
};

describe("the OpenAPI document of /v1", () => {
  it("GET /v1/openapi.json answers without a key and validates as OpenAPI 3.1", async () => {
    const response = openapiJson(new Request("http://localhost:3000/v1/openapi.json"));
    expect(response.status).toBe(200);
    expect(response.headers.get("request-id")).toMatch(/^req_/);
    const served = await response.json();
    const validator = new Validator();
    const result = await validator.validate(served);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("the committed docs/openapi.json is the document the code generates (npm run openapi rewrites it)", () => {
    expect(JSON.parse(readFileSync("docs/openapi.json", "utf8"))).toEqual(JSON.parse(JSON.stringify(v1Document())));
  });

  it("every route file under app/v1 is in the document, and every path of the document is served", () => {
    const files = readdirSync(path.resolve("app/v1"), { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith("route.ts") && !file.includes("[...") && !file.startsWith("openapi.json"))
      .map((file) => `/v1/${path.dirname(file).replace(/\[(\w+)\]/g, "{$1}")}`)
      .sort();
    expect(V1_ROUTES.map((route) => route.path).sort()).toEqual(files);
    expect(Object.keys(document.paths).sort()).toEqual(files);
  });

  it("lists the twelve webhook events with the signature header", () => {
    expect(Object.keys(document.webhooks)).toHaveLength(12);
    expect(JSON.stringify(document.webhooks["email.clicked"])).toContain("X-Service-Signature");
  });

  it("every operation accepts the request its description gives, and answers a documented success", async () => {
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    const { key } = await seedKey(ctx, workspaceId);
    const actor = systemActor("test", workspaceId);
    const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
    const { contact } = await upsertContact(ctx, actor, { email: "grace@example.com", topicIds: [topicId] });
    const { listId } = await createList(ctx, actor, { brandId, name: "Readers" });
    const { suppression } = await createSuppression(ctx, actor, { email: "gone@example.com" });
    // The examples name placeholder ids; the request uses this workspace's real ones.
    const real: Record<string, string> = { tp: topicId, ct: contact.id, ls: listId, sup: suppression.id };
    const withRealIds = (value: unknown) =>
      JSON.parse(
        JSON.stringify(value ?? null).replace(
          /"(tp|ct|ls|sup)_[0-9a-z]{26}"/g,
          (_, prefix: string) => `"${real[prefix]}"`,
        ),
      );
    const pathIds: Record<string, string> = { contacts: contact.id, lists: listId, suppressions: suppression.id };

    // The erasure goes last: every other operation uses the contact it erases.
    const erasesLast = Object.entries(document.paths)
      .flatMap(([documentedPath, item]) =>
        Object.entries(item).map(([method, operation]) => ({ documentedPath, method, operation })),
      )
      .sort(
        (x, y) =>
          Number(x.method === "delete" && x.documentedPath === "/v1/contacts/{id}") -
          Number(y.method === "delete" && y.documentedPath === "/v1/contacts/{id}"),
      );
    let operations = 0;
    for (const { documentedPath, method, operation } of erasesLast) {
      {
        const url = new URL(
          documentedPath.replace("{id}", pathIds[documentedPath.split("/")[2]!]!),
          "http://localhost:3000",
        );
        for (const parameter of operation.parameters ?? [])
          if (parameter.in === "query" && parameter.example) url.searchParams.set(parameter.name, parameter.example);
        const content = operation.requestBody?.content["application/json"];
        if (operation.requestBody)
          expect(content?.example, `${method} ${documentedPath} gives an example body`).toBeDefined();
        const response = await callApi(method.toUpperCase(), url.pathname + url.search, {
          key,
          ...(content ? { body: withRealIds(content.example) } : {}),
        });
        expect(Object.keys(operation.responses), `${method} ${documentedPath}`).toContain(String(response.status));
        expect(response.status, `${method} ${documentedPath}: ${JSON.stringify(response.body)}`).toBeLessThan(300);
        operations++;
      }
    }
    expect(operations).toBe(16);
  });
});

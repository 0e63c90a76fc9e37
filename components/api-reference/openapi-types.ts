// The parts of an OpenAPI 3.1 document the reference page reads.

export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  description?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  maxItems?: number;
  default?: unknown;
  additionalProperties?: JsonSchema | boolean;
}

export interface Parameter {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  description?: string;
  schema: JsonSchema;
  example?: string;
}

export interface Operation {
  operationId: string;
  summary: string;
  description?: string;
  tags?: string[];
  "x-key-kinds"?: string[];
  "x-rate-limit"?: { bucket: string; per_minute: number };
  parameters?: Parameter[];
  requestBody?: { content: { "application/json": { schema: JsonSchema; example?: unknown } } };
  responses: Record<string, { description: string; content?: { "application/json": { schema: JsonSchema } } }>;
}

export interface OpenApiDocument {
  info: { title: string; version: string; description: string };
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema> };
}

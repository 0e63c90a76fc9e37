import type { z } from "zod";

import type { Bucket } from "./rate-limit";

/** How a /v1 route describes itself for the OpenAPI document: what it does, what it answers, how it can fail. */
export interface RouteDoc {
  summary: string;
  description?: string;
  /** Each success status with its body's schema (none for a 304). */
  responses: Partial<Record<200 | 201 | 202, { description: string; schema: z.ZodType }>>;
  /** This route's own error codes, beyond those of the pipeline (keys, rate limit, input, workspace). */
  errors?: { status: number; code: string; when: string }[];
  /** Answers 304 to a matching If-None-Match (reports). */
  etag?: boolean;
  /** A request that the route accepts, for the reference page and the document's own test. */
  example?: { body?: unknown; query?: Record<string, string> };
}

/** What apiRoute knows about a route, kept on its handler for the document. */
export interface RouteSpec {
  key: "secret" | "any";
  bucket: Bucket;
  query?: z.ZodType;
  paginated?: boolean;
  body?: z.ZodType;
  cors?: boolean;
  doc: RouteDoc;
}

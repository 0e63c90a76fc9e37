import { createHash } from "node:crypto";

import { env } from "@/lib/env";
import { buildSignupFormScript, type SignupFormScript } from "@/lib/forms/embed/build-signup-form-script";

let built: Promise<SignupFormScript> | null = null;

// GET /embed/signup-form.js — the embeddable form's script, built once per process from its source.
export async function GET(request: Request): Promise<Response> {
  if (!built || env().NODE_ENV !== "production") {
    built = buildSignupFormScript();
    built.catch(() => (built = null)); // a failed build is tried again on the next request, not served forever
  }
  const { code } = await built;
  const etag = `"${createHash("sha256").update(code).digest("base64url").slice(0, 22)}"`;
  const headers = {
    "Content-Type": "text/javascript; charset=utf-8",
    // Short: a sender's pages pick up a new version within minutes; the ETag makes revalidation cheap.
    "Cache-Control": "public, max-age=300",
    ETag: etag,
    "Access-Control-Allow-Origin": "*",
    "X-Content-Type-Options": "nosniff",
  };
  if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
  return new Response(code, { headers });
}

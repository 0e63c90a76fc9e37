import { corsHeaders, preflightResponse } from "@/lib/api/cors";
import { toErrorResponse } from "@/lib/api/error-response";
import { methodsNotAllowed } from "@/lib/api/methods-not-allowed";
import { startRequestLog } from "@/lib/api/request-log";
import { defaultCtx } from "@/lib/context";
import { notFound } from "@/lib/errors";
import { loadSignupForm } from "@/lib/forms/load-signup-form";
import { publicSignupForm } from "@/lib/forms/public-signup-form";
import { checkFormOrigin, formUnavailable } from "@/lib/forms/submit-signup-form";
import { appUrl } from "@/lib/runtime/app-url";

type Context = { params: Promise<{ formId: string }> };

// GET /f/{formId}/config — what the embed script renders. Checked against the key's allowlist here
// too, so a form copied onto another site says so at once rather than after someone types into it.
export async function GET(request: Request, { params }: Context): Promise<Response> {
  const log = startRequestLog(request);
  const { formId } = await params;
  log.route({ formId });
  const origin = request.headers.get("origin");
  const headers = log.headers({ ...corsHeaders(origin), "Cache-Control": "no-store" });
  try {
    const form = await loadSignupForm(defaultCtx(), formId);
    if (!form) throw notFound("form_not_found", "No such form.");
    checkFormOrigin(form, origin);
    if (form.key.revoked || form.topics.length === 0) throw formUnavailable();
    const view = publicSignupForm(form, form.topics, form.attributeTypes, appUrl());
    return log.done(Response.json({ data: view }, { headers }));
  } catch (error) {
    return log.done(toErrorResponse(error, headers, log));
  }
}

export function OPTIONS(request: Request): Response {
  return preflightResponse(request);
}

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed("GET");

import { corsHeaders, preflightResponse } from "@/lib/api/cors";
import { toErrorResponse } from "@/lib/api/error-response";
import { methodsNotAllowed } from "@/lib/api/methods-not-allowed";
import { startRequestLog } from "@/lib/api/request-log";
import { defaultCtx } from "@/lib/context";
import { ApiError } from "@/lib/errors";
import { hostedFormUrl } from "@/lib/forms/hosted-form-url";
import { readFormRequest, type FormRequestKind } from "@/lib/forms/read-form-request";
import { submitSignupForm } from "@/lib/forms/submit-signup-form";
import { clientIpFromHeaders } from "@/lib/http/client-ip";
import { signToken } from "@/lib/tokens/signed-token";

type Context = { params: Promise<{ formId: string }> };

// POST /f/{formId}/submit — a signup through an embedded form: JSON from the script (answered in
// JSON, readable from the sender's page), or a plain HTML form (answered by sending the browser on).
export async function POST(request: Request, { params }: Context): Promise<Response> {
  const log = startRequestLog(request);
  const { formId } = await params;
  log.route({ formId });
  const origin = request.headers.get("origin");
  // Readable from any page, refusals included: the form must be able to say why it cannot be used here.
  const headers = log.headers(corsHeaders(origin));
  let kind: FormRequestKind = "json";
  try {
    const read = await readFormRequest(request);
    kind = read.kind;
    const { status, redirectUrl } = await submitSignupForm(defaultCtx(), {
      formId,
      origin,
      ip: clientIpFromHeaders(request.headers),
      values: read.values,
    });
    if (kind === "html") return log.done(seeOther(redirectUrl ?? hostedFormUrl(formId, { done: status }), headers));
    return log.done(Response.json({ data: { status } }, { headers }));
  } catch (error) {
    if (kind === "html" && error instanceof ApiError && error.code !== "form_not_found") {
      const problem = signToken("form_error", { param: error.param ?? "form", message: error.message });
      return log.done(seeOther(hostedFormUrl(formId, { error: problem }), headers));
    }
    return log.done(toErrorResponse(error, headers, log));
  }
}

function seeOther(location: string, headers: Record<string, string>): Response {
  return new Response(null, { status: 303, headers: { ...headers, Location: location } });
}

export function OPTIONS(request: Request): Response {
  return preflightResponse(request);
}

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed("POST");

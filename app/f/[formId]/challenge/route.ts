import { corsHeaders } from "@/lib/api/cors";
import { methodsNotAllowed } from "@/lib/api/methods-not-allowed";
import { startRequestLog } from "@/lib/api/request-log";
import { defaultCtx } from "@/lib/context";
import { newFormChallenge } from "@/lib/forms/form-challenge";

// GET /f/{formId}/challenge — a fresh proof-of-work challenge (ALTCHA) for the form to solve before it posts.
export async function GET(request: Request): Promise<Response> {
  const log = startRequestLog(request);
  const challenge = await newFormChallenge(defaultCtx());
  return log.done(
    Response.json(challenge, {
      headers: log.headers({ ...corsHeaders(request.headers.get("origin")), "Cache-Control": "no-store" }),
    }),
  );
}

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed("GET");

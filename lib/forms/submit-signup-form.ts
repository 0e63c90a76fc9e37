import "server-only";

import { apiKeyActor } from "@/lib/actor";
import { canonicalOrigin, checkOrigin } from "@/lib/api/check-origin";
import { checkWorkspaceActive } from "@/lib/api/check-workspace-active";
import { consumeRateLimit, countRateLimit } from "@/lib/api/rate-limit";
import { withTransaction, type Ctx } from "@/lib/context";
import { signupFormSubmissions } from "@/lib/db/schema";
import { env, type Env } from "@/lib/env";
import { ApiError, notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { subscribeFromForm, type FormAnswer } from "@/lib/subscriptions/subscribe-from-form";

import { acceptFormChallenge } from "./form-challenge";
import { loadSignupForm, type LoadedSignupForm } from "./load-signup-form";
import { readSignupFormValues, type SubmittedValues } from "./read-signup-form-values";
import { redirectUrlAllowed } from "./redirect-url-allowed";

/** The window of the per-address limit: SIGNUP_FORM_SUBMISSIONS_PER_IP (default 20) submissions across every form. */
export const SUBMISSIONS_PER_IP_WINDOW_MS = 10 * 60_000;

export interface SignupFormRequest {
  formId: string;
  /** The request's Origin header: the page the form sits on. */
  origin: string | null;
  /** The client's address, for the per-address limit; null when unknown (one shared counter). */
  ip: string | null;
  values: SubmittedValues;
}

type FormConfig = Pick<Env, "APP_URL" | "SIGNUP_FORM_SUBMISSIONS_PER_IP">;

export const formUnavailable = () =>
  new ApiError({
    type: "permission_error",
    code: "form_unavailable",
    message: "This form is not accepting signups right now.",
  });

/**
 * A signup through a form: the same rules as POST /v1/subscribe, applied
 * with the form's publishable key (allowlist, mode, brand lock, rate limit),
 * plus a limit per client address and the form's own checks: its fields, its
 * topics, and the proof-of-work challenge when the sender turned it on. A
 * refused submission changes nothing; a filled honeypot is answered like a
 * genuine one and dropped. The answer never depends on the address.
 */
export async function submitSignupForm(
  ctx: Ctx,
  request: SignupFormRequest,
  config: FormConfig = env(),
): Promise<{ status: FormAnswer; redirectUrl: string | null }> {
  const form = await loadSignupForm(ctx, request.formId);
  if (!form) throw notFound("form_not_found", "No such form.");
  checkFormOrigin(form, request.origin, config);
  if (form.key.revoked || form.topics.length === 0) throw formUnavailable();
  checkWorkspaceActive(form.billingStage, "POST");
  await limitPerAddress(ctx, request.ip, config);

  const submission = readSignupFormValues(form, request.values);
  // The proof of work before the key's rate limit: posts that did no work must not spend the budget the
  // form's key shares with every visitor, or a bot without solutions closes the form to everyone.
  if (form.challenge && !(await acceptFormChallenge(ctx, request.values.altcha))) {
    throw new ApiError({
      type: "invalid_request_error",
      code: "challenge_failed",
      param: "altcha",
      message: "The anti-spam check did not pass. Reload the page and try again.",
    });
  }
  await consumeRateLimit(ctx, form.key.id, "subscribe");
  const topics = form.topics.filter((topic) => submission.topicIds.includes(topic.id));
  const status: FormAnswer = topics.some((topic) => topic.requiresConfirmation) ? "confirmation_sent" : "subscribed";
  // Checked again here: a page saved before the rule, or since taken off the key's allowlist, is not followed.
  const redirectUrl =
    form.redirectUrl && redirectUrlAllowed(form.redirectUrl, form.key.allowedOrigins, form.brandWebsiteUrl)
      ? form.redirectUrl
      : null;
  const answer = { status, redirectUrl };
  if (submission.website) return answer;

  const actor = apiKeyActor({
    keyId: form.key.id,
    workspaceId: form.workspaceId,
    brandId: form.key.brandId,
    mode: form.key.environment,
  });
  await withTransaction(ctx, async (tx) => {
    const subscriptionIds: string[] = [];
    for (const topic of topics) {
      const { subscriptionId } = await subscribeFromForm(
        tx,
        actor,
        { ...submission.fields, topicId: topic.id },
        { kind: "signup_form", form_id: form.id, form_name: form.name },
      );
      if (subscriptionId) subscriptionIds.push(subscriptionId);
    }
    await tx.db.insert(signupFormSubmissions).values({
      id: newId("fms"),
      workspaceId: form.workspaceId,
      formId: form.id,
      subscriptionIds,
      submittedAt: tx.clock.now(),
    });
  });
  return answer;
}

/** The key's allowlist, except on the service's own hosted page for the form. */
export function checkFormOrigin(
  form: LoadedSignupForm,
  origin: string | null,
  config: Pick<Env, "APP_URL"> = env(),
): void {
  const own = canonicalOrigin(config.APP_URL);
  if (origin && canonicalOrigin(origin) === own) return;
  checkOrigin(form.key.allowedOrigins, origin);
}

async function limitPerAddress(ctx: Ctx, ip: string | null, config: FormConfig): Promise<void> {
  // An unknown address (the app not behind scripts/serve.ts) is not one shared counter: that would let one
  // bot close every form of every workspace. The key's own rate limit still applies.
  if (!ip) return;
  const { retryAfterSeconds } = await countRateLimit(ctx, ip, {
    bucket: "form.ip",
    limit: config.SIGNUP_FORM_SUBMISSIONS_PER_IP,
    windowMs: SUBMISSIONS_PER_IP_WINDOW_MS,
  });
  if (retryAfterSeconds === null) return;
  throw new ApiError({
    type: "rate_limit_error",
    code: "rate_limited",
    message: `Too many signups from your network. Try again in ${Math.ceil(retryAfterSeconds / 60)} minutes.`,
    headers: { "Retry-After": String(retryAfterSeconds) },
  });
}

"use server";

import { headers } from "next/headers";
import { after } from "next/server";

import type { ForgotPasswordState } from "@/components/forgot-password-form";
import { defaultCtx } from "@/lib/context";
import { ApiError } from "@/lib/errors";
import { clientIpFromHeaders } from "@/lib/http/client-ip";
import { logger } from "@/lib/log/logger";
import { requestPasswordReset } from "@/lib/users/request-password-reset";

// Public by design: anyone may ask. The limits (per address, per client IP) and the one answer for every address are requestPasswordReset's.
export async function requestPasswordResetAction(
  _previous: ForgotPasswordState,
  form: FormData,
): Promise<ForgotPasswordState> {
  const email = form.get("email");
  if (typeof email !== "string") return { error: "Enter your email address.", field: "email" };
  try {
    const { mailing } = await requestPasswordReset(defaultCtx(), { email, ip: clientIpFromHeaders(await headers()) });
    // After the answer: it takes as long whether or not the address has an account.
    after(() => mailing.catch((error: unknown) => logger().error({ err: error }, "password reset mail failed")));
  } catch (error) {
    if (error instanceof ApiError)
      return { error: error.param === "email" ? "Enter a valid email address." : error.message, field: error.param };
    logger().error({ err: error }, "password reset request failed");
    return { error: "Something went wrong on our side; try again." };
  }
  return { sent: true };
}

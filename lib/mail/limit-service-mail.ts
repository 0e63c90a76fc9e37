import "server-only";

import { countRateLimit } from "@/lib/api/rate-limit";
import type { Ctx } from "@/lib/context";
import { ApiError } from "@/lib/errors";

/** The service's own mail that a workspace asks for, to an address it names, per workspace per day. */
export const SERVICE_MAILS_PER_DAY = 20;
/** And at most one to the same address from the same workspace in this long. */
export const SERVICE_MAIL_ADDRESS_WINDOW_MS = 10 * 60_000;
const DAY_MS = 24 * 60 * 60_000;

/**
 * Counts one mail of the service's own (a confirmation link, an invitation) that a workspace asks to send
 * to `email`, and refuses it (429 rate_limited) past either limit. That mail carries the workspace's chosen
 * name from the service's own address: it must not become a way to mail anyone, often. Refused attempts
 * count too, so hammering keeps the workspace out.
 * Internal: the invitation and verified-address verbs, with their actor's workspace.
 */
export async function limitServiceMail(
  ctx: Ctx,
  workspaceId: string,
  email: string,
  { bucket, what, param }: { bucket: string; what: string; param?: string },
): Promise<void> {
  const [perWorkspace, perAddress] = await Promise.all([
    countRateLimit(ctx, workspaceId, { bucket: `${bucket}.workspace`, limit: SERVICE_MAILS_PER_DAY, windowMs: DAY_MS }),
    countRateLimit(ctx, `${workspaceId}:${email}`, {
      bucket: `${bucket}.address`,
      limit: 1,
      windowMs: SERVICE_MAIL_ADDRESS_WINDOW_MS,
    }),
  ]);
  const wait = Math.max(perWorkspace.retryAfterSeconds ?? 0, perAddress.retryAfterSeconds ?? 0);
  if (wait > 0) {
    throw new ApiError({
      type: "rate_limit_error",
      code: "rate_limited",
      param,
      message: `Too many ${what} sent; try again in ${Math.ceil(wait / 60)} minutes.`,
      headers: { "Retry-After": String(wait) },
    });
  }
}

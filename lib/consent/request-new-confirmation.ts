import "server-only";

import { eq } from "drizzle-orm";

import { withTransaction, type Ctx } from "@/lib/context";
import { confirmationRequests, subscriptions } from "@/lib/db/schema";
import { verifyToken } from "@/lib/tokens/signed-token";

import { recordConfirmationRequest } from "./record-confirmation-request";

/** "Sign up again" from an expired confirmation link: a new mail for the still-pending subscription. */
export async function requestNewConfirmation(ctx: Ctx, token: string): Promise<{ requested: boolean }> {
  const payload = verifyToken<{ r: string }>("confirm", token);
  if (!payload) return { requested: false };
  return withTransaction(ctx, async (tx) => {
    const [row] = await tx.db
      .select({ request: confirmationRequests, state: subscriptions.state })
      .from(confirmationRequests)
      .innerJoin(subscriptions, eq(subscriptions.id, confirmationRequests.subscriptionId))
      .where(eq(confirmationRequests.id, payload.r));
    if (!row || row.state !== "pending") return { requested: false };
    await recordConfirmationRequest(tx, {
      workspaceId: row.request.workspaceId,
      subscriptionId: row.request.subscriptionId,
      email: row.request.email,
    });
    return { requested: true };
  });
}

import type { Ctx } from "@/lib/context";
import { ApiError } from "@/lib/errors";
import { assertMember } from "./assert-member";

/**
 * For dashboard pages: resolves when the user is a member, otherwise calls
 * `onMissing` (the page passes Next's notFound) so that other workspaces look
 * like nothing at all.
 */
export async function requireMembership(ctx: Ctx, userId: string, workspaceId: string, onMissing: () => never): Promise<void> {
  try {
    await assertMember(ctx, userId, workspaceId);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) onMissing();
    throw error;
  }
}

import { sql } from "drizzle-orm";
import { z } from "zod";
import { withTransaction, type Ctx } from "@/lib/context";
import { ApiError } from "@/lib/errors";
import { createWorkspace } from "@/lib/workspaces/create-workspace";
import { emailField, nameField } from "@/lib/validation/fields";
import { parseInput } from "@/lib/validation/parse-input";
import { createUser, passwordField } from "./create-user";
import { hasAnyUser } from "./has-any-user";

const firstOwnerSchema = z.strictObject({ email: emailField, password: passwordField, workspaceName: nameField });

// Serialises concurrent first-run submissions so only one owner is ever created this way.
const FIRST_RUN_LOCK = 727_002;

/** The first-run page: creates the first user and their workspace, only while nobody can sign in. */
export async function createFirstOwner(ctx: Ctx, input: z.input<typeof firstOwnerSchema>): Promise<{ userId: string; workspaceId: string }> {
  const { email, password, workspaceName } = parseInput(firstOwnerSchema, input);
  return withTransaction(ctx, async (tx) => {
    await tx.db.execute(sql`select pg_advisory_xact_lock(${FIRST_RUN_LOCK})`);
    if (await hasAnyUser(tx)) {
      throw new ApiError({ type: "permission_error", code: "setup_complete", message: "The service already has an owner: sign in instead." });
    }
    const { workspaceId } = await createWorkspace(tx, { name: workspaceName, ownerEmail: email });
    const { userId } = await createUser(tx, { email, password });
    return { userId, workspaceId };
  });
}

import { grantOperator } from "@/lib/operator/grant-operator";
import { createUser } from "@/lib/users/create-user";

import { opt, str, string, type AdminCommand } from "./admin-command";

/** Users: created with a password, and made operators (the service's reviewers). */
export const userCommands: Record<string, AdminCommand> = {
  "user:create": {
    summary: "--email E --password P [--workspace ID] [--operator]   (--operator: one of the service's reviewers)",
    options: { email: string, password: string, workspace: string, operator: { type: "boolean" } },
    required: ["email", "password"],
    run: async (ctx, v) => {
      const { userId } = await createUser(ctx, {
        email: str(v, "email"),
        password: str(v, "password"),
        workspaceId: opt(v, "workspace"),
      });
      if (v.operator === true) await grantOperator(ctx, str(v, "email"));
      return { user_id: userId, ...(v.operator === true ? { operator: true } : {}) };
    },
  },
  "user:grant-operator": {
    summary: "--email E   (the user reviews workspaces and brands at /operator)",
    options: { email: string },
    required: ["email"],
    run: async (ctx, v) => ({ user_id: await grantOperator(ctx, str(v, "email")), operator: true }),
  },
};

"use server";

import { z } from "zod";

import { createApiKeySchema } from "@/lib/api-keys/api-key-schemas";
import { createApiKey } from "@/lib/api-keys/create-api-key";
import { revokeApiKey } from "@/lib/api-keys/revoke-api-key";
import { workspaceAction } from "@/lib/dashboard/workspace-action";

// Not revalidated: the key is shown until the dialog closes, which refreshes the table.
export const createApiKeyAction = workspaceAction(
  createApiKeySchema,
  ({ ctx, actor }, input) => createApiKey(ctx, actor, input),
  { revalidate: false },
);

export const revokeApiKeyAction = workspaceAction(z.strictObject({ keyId: z.string() }), ({ ctx, actor }, { keyId }) =>
  revokeApiKey(ctx, actor, keyId),
);

import { systemActor } from "@/lib/actor";
import { createApiKey } from "@/lib/api-keys/create-api-key";
import { revokeApiKey } from "@/lib/api-keys/revoke-api-key";

import { opt, str, string, type AdminCommand } from "./admin-command";

/** API keys: secret or publishable, live or test, created and revoked. */
export const keyCommands: Record<string, AdminCommand> = {
  "key:create": {
    summary: "--workspace ID --type secret|publishable --env live|test [--brand ID] [--origin O]... [--name N]",
    options: {
      workspace: string,
      type: string,
      env: string,
      brand: string,
      origin: { type: "string", multiple: true },
      name: string,
    },
    required: ["workspace", "type", "env"],
    run: async (ctx, v) => {
      const { keyId, key } = await createApiKey(ctx, systemActor("admin-cli", str(v, "workspace")), {
        kind: str(v, "type") as "secret",
        environment: str(v, "env") as "live",
        brandId: opt(v, "brand"),
        origins: (v.origin as string[] | undefined) ?? [],
        name: opt(v, "name"),
      });
      return { key_id: keyId, key };
    },
  },
  "key:revoke": {
    summary: "--key ID",
    options: { key: string },
    required: ["key"],
    run: async (ctx, v) => {
      const { keyId, revokedAt } = await revokeApiKey(ctx, systemActor("admin-cli"), str(v, "key"));
      return { key_id: keyId, revoked_at: revokedAt.toISOString() };
    },
  },
};

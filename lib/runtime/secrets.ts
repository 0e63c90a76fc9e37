import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

import { randomSecret } from "@/lib/ids";

/** Secrets the service needs; each can be given by environment, else it is generated once into DATA_DIR. */
export const SECRET_NAMES = ["AUTH_SECRET", "CURSOR_SECRET", "TOKEN_SECRET", "EMBEDDED_PG_PASSWORD"] as const;
export type SecretName = (typeof SECRET_NAMES)[number];

export function loadSecrets(
  dataDir: string,
  env: Partial<Record<string, string>> = process.env,
): Record<SecretName, string> {
  const file = path.join(dataDir, "secrets.json");
  const stored: Partial<Record<SecretName, string>> = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : {};
  let changed = false;
  for (const name of SECRET_NAMES) {
    if (!stored[name]) {
      stored[name] = randomSecret();
      changed = true;
    }
  }
  if (changed) {
    writeFileSync(file, JSON.stringify(stored, null, 2) + "\n", { mode: 0o600 });
    // `mode` applies only when the file is created: a file copied in or restored with a broader mode keeps it otherwise.
    chmodSync(file, 0o600);
  }
  const result = {} as Record<SecretName, string>;
  for (const name of SECRET_NAMES) result[name] = env[name] || stored[name]!;
  return result;
}

/** Puts the secrets into the environment (without overriding what is set) for this process and its children. */
export function applySecrets(dataDir: string, env: Partial<Record<string, string>> = process.env): void {
  const secrets = loadSecrets(dataDir, env);
  for (const name of SECRET_NAMES) env[name] ||= secrets[name];
}

import { chmodSync, mkdirSync } from "node:fs";
import path from "node:path";

/** DATA_DIR (default `.data`) resolved against the working directory and created. */
export function resolveDataDir(env: Partial<Record<string, string>> = process.env): string {
  const dir = path.resolve(env.DATA_DIR || ".data");
  mkdirSync(dir, { recursive: true });
  // The embedded server runs as the `postgres` user, which must be able to walk into this folder.
  chmodSync(dir, 0o755);
  return dir;
}

import { reloadEnv } from "@/lib/env";
import { resolveDataDir } from "@/lib/runtime/data-dir";
import { applySecrets } from "@/lib/runtime/secrets";

import { startEmbeddedPostgres } from "./embedded-postgres";
import { migrateDatabase } from "./migrate";

export interface OpenedDatabase {
  url: string;
  embedded: boolean;
  close(): Promise<void>;
}

/**
 * The database of this installation: `DATABASE_URL` when set, else the
 * embedded server in DATA_DIR (joined if running, started if not). Applies
 * migrations and puts DATABASE_URL and the secrets into the environment.
 * Reads process.env itself: it completes the environment that lib/env parses.
 */
export async function openDatabase(
  opts: {
    adoptRunningServer?: boolean;
    log?: (m: string) => void;
    /** The embedded server's extra settings, when this call starts it (a benchmark's statement profile). */
    settings?: Record<string, string>;
  } = {},
): Promise<OpenedDatabase> {
  const dataDir = resolveDataDir();
  applySecrets(dataDir);
  // A module may have parsed the configuration on import (the Inngest client does), before the secrets were there.
  reloadEnv();
  if (process.env.DATABASE_URL) {
    await migrateDatabase(process.env.DATABASE_URL);
    return { url: process.env.DATABASE_URL, embedded: false, close: async () => {} };
  }
  const server = await startEmbeddedPostgres({
    dataDir,
    password: process.env.EMBEDDED_PG_PASSWORD!,
    adopt: opts.adoptRunningServer,
    log: opts.log,
    settings: opts.settings,
  });
  try {
    await migrateDatabase(server.url);
  } catch (error) {
    await server.stop();
    throw error;
  }
  process.env.DATABASE_URL = server.url;
  return {
    url: server.url,
    embedded: true,
    close: async () => {
      delete process.env.DATABASE_URL;
      await server.stop();
    },
  };
}

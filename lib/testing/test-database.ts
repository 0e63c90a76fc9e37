import postgres from "postgres";

/** What the global setup hands every test file: a server to make databases on and a migrated template. */
export interface TestDatabaseServer {
  adminUrl: string;
  template: string;
  prefix: string;
}

export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function withAdmin<T>(adminUrl: string, fn: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    return await fn(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** Copies the migrated template; PostgreSQL refuses while another copy of it is starting, so retry. */
export async function createDatabaseFromTemplate(server: TestDatabaseServer, name: string): Promise<string> {
  await withAdmin(server.adminUrl, async (sql) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await sql.unsafe(`create database "${name}" template "${server.template}"`);
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== "55006" || attempt > 50) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 100));
      }
    }
  });
  return databaseUrl(server.adminUrl, name);
}

export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  await withAdmin(adminUrl, (sql) => sql.unsafe(`drop database if exists "${name}" with (force)`));
}

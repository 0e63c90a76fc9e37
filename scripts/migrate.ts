// npm run db:migrate — applies the committed migrations to DATABASE_URL or the embedded database.
import { openDatabase } from "@/lib/db/database";

const database = await openDatabase();
console.log(`migrated ${database.embedded ? "the embedded database" : "DATABASE_URL"}`);
await database.close();

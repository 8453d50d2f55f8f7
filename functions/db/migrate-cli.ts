// `node functions/db/migrate-cli.ts`: applies supabase/migrations to DATABASE_URL (deploy step).
import { openPostgres } from "./db.ts";
import { migrate } from "./migrate.ts";

const url = process.env.DATABASE_URL;
if (!url) {
  console.error("Set DATABASE_URL to the Postgres database to migrate.");
  process.exit(2);
}
const db = openPostgres(url, 1);
try {
  const applied = await migrate(db);
  console.log(applied.length ? `Applied ${applied.join(", ")}.` : "The database is up to date.");
} catch (error) {
  console.error(`Migration failed: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await db.close();
}

import type { Db } from "../db/db.ts";
import { pruneAudit } from "./log.ts";

/**
 * What the team's side keeps (SPEC §26), swept every minute by the Node server and by each
 * scheduled drain: audit rows for 365 days, `/results` sign-in links and sessions until a day
 * after they expired.
 */
export async function teamUpkeep(db: Db, rounds = 10): Promise<void> {
  await pruneAudit(db, rounds);
  await db.query("delete from results_sign_ins where expires_at < now() - interval '1 day'");
  await db.query("delete from results_sessions where expires_at < now() - interval '1 day'");
}

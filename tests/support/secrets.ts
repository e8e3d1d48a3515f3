import type { Db } from '../../api/src/db/connection';

/**
 * The tables where `secret` can be read as stored: every row of every table, all its columns as text. What a leaked
 * database (or a backup) would give away.
 */
export async function tablesHolding(db: Db, secret: string): Promise<string[]> {
  const tables: { name: string }[] = (
    await db.raw(
      `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1`,
    )
  ).rows;
  const found: string[] = [];
  for (const { name } of tables) {
    const { rows } = await db.raw(`SELECT count(*)::int AS n FROM ?? AS t WHERE strpos(t::text, ?) > 0`, [
      name,
      secret,
    ]);
    if (rows[0].n > 0) found.push(name);
  }
  return found;
}

import type { Knex } from 'knex';

/** The longest slug the console accepts (api/src/admin/schemas/learning.ts); room is kept for a "-N" suffix. */
const SLUG_MAX = 120;
const BASE_MAX = SLUG_MAX - 8;

/** Letters Unicode does not decompose into an ASCII letter and a mark. */
const FOLDS: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ð: 'd', ł: 'l', þ: 'th', ı: 'i' };

/**
 * A slug from a title: lower-case ASCII letters and digits joined by single hyphens ("Café & Crème" → cafe-creme).
 * Accents are folded (NFKD, marks dropped); anything else separates words. Null when nothing is left (a title in
 * a script without ASCII letters): the caller picks a fallback.
 */
export function slugify(title: string): string | null {
  const slug = title
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[ßæœøđðłþı]/g, (c) => FOLDS[c] ?? c)
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, BASE_MAX)
    .replace(/^-+|-+$/g, '');
  return slug || null;
}

/** The next free-looking suffix for `base` ("base-2", then one past the highest "base-N" in use). */
async function nextCandidate(trx: Knex.Transaction, base: string): Promise<string> {
  const { rows } = (await trx.raw(
    `SELECT max(substring(fields->>'slug' FROM char_length(?) + 2)::int) AS n FROM content_resources
      WHERE deleted_at IS NULL AND fields->>'slug' ~ ('^' || ? || '-[0-9]{1,6}$')`,
    [base, base],
  )) as { rows: { n: number | null }[] };
  return `${base}-${Math.max(1, rows[0]?.n ?? 1) + 1}`;
}

/**
 * Inserts a content resource whose slug is `base`, or `base-2`, `base-3`… when taken. The unique index on live slugs
 * decides (INSERT … ON CONFLICT DO NOTHING), never a look-up before the insert: two editors adding "Intro" at once get
 * intro and intro-2. The look-up only suggests the next suffix to try after a conflict.
 */
export async function insertWithUniqueSlug(
  trx: Knex.Transaction,
  row: { type: string; createdById: string; fields: Record<string, unknown> },
  base: string,
): Promise<{ id: string; slug: string }> {
  let slug = base;
  for (let attempt = 0; attempt < 20; attempt++) {
    const { rows } = (await trx.raw(
      `INSERT INTO content_resources (type, created_by_id, fields) VALUES (?, ?, ?::jsonb)
       ON CONFLICT ((fields->>'slug')) WHERE deleted_at IS NULL AND fields->>'slug' IS NOT NULL DO NOTHING
       RETURNING id`,
      [row.type, row.createdById, JSON.stringify({ ...row.fields, slug })],
    )) as { rows: { id: string }[] };
    if (rows[0]) return { id: rows[0].id, slug };
    slug = await nextCandidate(trx, base);
  }
  throw new Error(`no free slug for ${base} after 20 attempts`);
}

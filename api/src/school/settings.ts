import type { Actor } from '../audit/record';
import { recordAudit } from '../audit/record';
import type { ReadCaches } from '../cache/read-cache';
import type { Knex } from 'knex';
import type { Db } from '../db/connection';
import { sanitizeRichText } from '../learning/sanitize';
import { imageUrl, parseImageKey } from '../media/images';
import type { School, SchoolInput, SchoolLogo } from './schemas';

const LOGO_WIDTH = 320;

interface SchoolRow {
  name: string;
  legalName: string;
  address: string;
  supportEmail: string | null;
  logoKey: string | null;
  accentColor: string;
  termsHtml: string;
  privacyHtml: string;
  updatedAt: Date;
}

function logoOf(key: string | null): SchoolLogo | null {
  const parsed = key ? parseImageKey(key) : null;
  if (!key || !parsed) return null;
  return { key, src: imageUrl(key, LOGO_WIDTH), width: parsed.width, height: parsed.height };
}

function present(row: SchoolRow): School {
  return {
    name: row.name,
    legalName: row.legalName,
    address: row.address,
    supportEmail: row.supportEmail,
    logo: logoOf(row.logoKey),
    accentColor: row.accentColor,
    termsHtml: row.termsHtml,
    privacyHtml: row.privacyHtml,
    updatedAt: row.updatedAt.toISOString(),
  };
}

const COLUMNS = [
  'name',
  'legalName',
  'address',
  'supportEmail',
  'logoKey',
  'accentColor',
  'termsHtml',
  'privacyHtml',
  'updatedAt',
] as const;

/**
 * The school's settings: read by every page, email and certificate (through the read cache, so a change made on
 * another replica shows within READ_CACHE_MS), written by administrators, audited. The one row is created by its
 * migration, so a read never finds none.
 */
export function schoolSettings({ db, caches }: { db: Db; caches: Pick<ReadCaches, 'cached'> }) {
  const read = caches.cached(async () => present((await db('schoolSettings').first(...COLUMNS)) as SchoolRow), {
    max: 1,
  });

  return {
    get: (): Promise<School> => read('school'),

    /** Read through the caller's connection (an email written in its transaction): uncached, no second connection. */
    readWith: async (conn: Knex): Promise<School> =>
      present((await conn('schoolSettings').first(...COLUMNS)) as SchoolRow),

    /** Replaces every field but the logo; the legal texts are sanitised as lesson bodies are. */
    async update(input: SchoolInput, context: { actor: Actor; requestId: string | null }): Promise<School> {
      const next = {
        ...input,
        termsHtml: sanitizeRichText(input.termsHtml),
        privacyHtml: sanitizeRichText(input.privacyHtml),
      };
      const row = await db.transaction(async (trx) => {
        const before = (await trx('schoolSettings')
          .forUpdate()
          .first(...COLUMNS)) as SchoolRow;
        const [after] = (await trx('schoolSettings')
          .update({ ...next, updatedAt: trx.fn.now() })
          .returning([...COLUMNS])) as SchoolRow[];
        const changed = (Object.keys(next) as (keyof typeof next)[]).filter((k) => before[k] !== next[k]);
        await recordAudit(trx, {
          actor: context.actor,
          requestId: context.requestId,
          action: 'update',
          resource: 'school',
          recordId: '1',
          before: Object.fromEntries(changed.map((k) => [k, before[k]])),
          after: Object.fromEntries(changed.map((k) => [k, next[k]])),
        });
        return after!;
      });
      read.forget('school');
      return present(row);
    },

    /** Forgets the cached settings (after the logo changes). */
    forget: () => read.forget('school'),
  };
}

export type SchoolSettings = ReturnType<typeof schoolSettings>;

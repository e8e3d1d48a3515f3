import type { Actor } from '../audit/record';
import { recordAudit } from '../audit/record';
import type { ReadCaches } from '../cache/read-cache';
import type { Knex } from 'knex';
import type { Db } from '../db/connection';
import { sanitizeRichText } from '../learning/sanitize';
import { imageUrl, parseImageKey } from '../media/images';
import { AppError } from '../shared/errors';
import { VAT_ID_COUNTRIES, normalizeVatId, vatIdProblem } from '../shared/vat-ids';
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
  taxCountry: string | null;
  taxId: string;
  taxEuOss: boolean;
  taxInclusiveCurrencies: string[];
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
    taxCountry: row.taxCountry,
    taxId: row.taxId,
    taxEuOss: row.taxEuOss,
    taxInclusiveCurrencies: row.taxInclusiveCurrencies,
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
  'taxCountry',
  'taxId',
  'taxEuOss',
  'taxInclusiveCurrencies',
  'updatedAt',
] as const;

type TaxFields = Pick<SchoolRow, 'taxCountry' | 'taxId' | 'taxEuOss' | 'taxInclusiveCurrencies'>;

const VAT_ID_MESSAGES = {
  'vat-id-format': "is not a VAT number of the school's country (such as DE123456789)",
  'vat-id-other-country': "is another country's VAT number than the school's",
} as const;

/**
 * The school's tax fields as they will be: those given over those kept. An EU or UK school's tax ID must be a VAT
 * number of its own country (normalised as invoices print it); a school that charges tax anywhere needs its tax ID;
 * the One-Stop Shop needs a country to register from.
 */
function nextTaxFields(before: TaxFields, input: SchoolInput): TaxFields {
  const next: TaxFields = {
    taxCountry: input.taxCountry === undefined ? before.taxCountry : input.taxCountry,
    taxId: input.taxId ?? before.taxId,
    taxEuOss: input.taxEuOss ?? before.taxEuOss,
    taxInclusiveCurrencies: input.taxInclusiveCurrencies ?? before.taxInclusiveCurrencies,
  };
  const errors: Record<string, string> = {};
  if (next.taxId && next.taxCountry && VAT_ID_COUNTRIES.includes(next.taxCountry)) {
    const problem = vatIdProblem(next.taxId, next.taxCountry);
    if (problem) errors.taxId = VAT_ID_MESSAGES[problem];
    else next.taxId = normalizeVatId(next.taxId);
  }
  if (next.taxEuOss && !next.taxCountry) errors.taxEuOss = 'needs the country the school is established in';
  const fields = Object.keys(errors);
  if (fields.length)
    throw new AppError('validation-failed', fields.map((f) => `${f}: ${errors[f]}`).join('; '), errors);
  // Every invoice prints the seller's tax number: a school that charges tax has one (a VAT number in the EU and UK).
  if (next.taxCountry && !next.taxId.trim()) {
    const taxId = VAT_ID_COUNTRIES.includes(next.taxCountry)
      ? "is needed to charge tax: the school's VAT number (such as DE123456789)"
      : "is needed to charge tax: the school's tax number, as its invoices print it";
    throw new AppError('tax-id-required', `taxId: ${taxId}`, { taxId });
  }
  return next;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The school's settings: read by every page, email and certificate (through the read cache, so a change made on
 * another replica shows within READ_CACHE_MS), written by administrators, audited. The one row is created by its
 * migration, so a read never finds none.
 */
export function schoolSettings({ db, caches }: { db: Db; caches: Pick<ReadCaches, 'cached' | 'clearAll'> }) {
  const readFrom = async (conn: Knex) => present((await conn('schoolSettings').first(...COLUMNS)) as SchoolRow);
  const read = caches.cached(() => readFrom(db), { max: 1 });

  return {
    get: (): Promise<School> => read('school'),

    /**
     * For a caller inside a transaction (an email written with a purchase): the cached settings, else read through
     * its connection (no second connection while it holds one) and kept for the next caller.
     */
    readWith: (conn: Knex): Promise<School> => read.through('school', () => readFrom(conn)),

    /**
     * Replaces every field but the logo (a tax field left out keeps its value); the legal texts are sanitised as
     * lesson bodies are. Every read cache is forgotten after: pages show the school, and the next quote its tax setup.
     */
    async update(input: SchoolInput, context: { actor: Actor; requestId: string | null }): Promise<School> {
      const row = await db.transaction(async (trx) => {
        const before = (await trx('schoolSettings')
          .forUpdate()
          .first(...COLUMNS)) as SchoolRow;
        const next = {
          name: input.name,
          legalName: input.legalName,
          address: input.address,
          supportEmail: input.supportEmail,
          accentColor: input.accentColor,
          termsHtml: sanitizeRichText(input.termsHtml),
          privacyHtml: sanitizeRichText(input.privacyHtml),
          ...nextTaxFields(before, input),
        };
        const [after] = (await trx('schoolSettings')
          .update({ ...next, updatedAt: trx.fn.now() })
          .returning([...COLUMNS])) as SchoolRow[];
        const changed = (Object.keys(next) as (keyof typeof next)[]).filter((k) => !same(before[k], next[k]));
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
      caches.clearAll();
      return present(row);
    },

    /** Forgets the cached settings (after the logo changes). */
    forget: () => read.forget('school'),
  };
}

export type SchoolSettings = ReturnType<typeof schoolSettings>;

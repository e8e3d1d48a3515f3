import { describe, expect, it } from 'vitest';
import * as models from '../support/models';
import { useTestDatabase } from '../support/db';

/** The data model as the original product defines it: entity → fields. */
const SEED_ENTITIES: Record<string, string[]> = {
  Comment: ['id', 'userId', 'text', 'context', 'updatedAt', 'createdAt'],
  ContentResource: ['id', 'type', 'createdById', 'fields', 'createdAt', 'updatedAt', 'deletedAt'],
  ContentResourceResource: [
    'resourceOfId',
    'resourceId',
    'position',
    'metadata',
    'createdAt',
    'updatedAt',
    'deletedAt',
  ],
  LessonProgress: [
    'id',
    'userId',
    'lessonId',
    'sectionId',
    'moduleId',
    'lessonSlug',
    'lessonVersion',
    'completedAt',
    'updatedAt',
    'createdAt',
  ],
  Account: [
    'id',
    'type',
    'provider',
    'providerAccountId',
    'refresh_token',
    'access_token',
    'expires_at',
    'token_type',
    'scope',
    'id_token',
    'session_state',
    'oauth_token_secret',
    'oauth_token',
    'userId',
    'refresh_token_expires_in',
  ],
  Coupon: [
    'id',
    'code',
    'createdAt',
    'expires',
    'maxUses',
    'default',
    'merchantCouponId',
    'status',
    'usedCount',
    'percentageDiscount',
    'restrictedToProductId',
    'bulkPurchaseId',
  ],
  MerchantAccount: ['id', 'status', 'createdAt', 'label', 'identifier'],
  MerchantCharge: [
    'id',
    'status',
    'identifier',
    'amount',
    'fee',
    'refundAmount',
    'net',
    'metadata',
    'userId',
    'merchantAccountId',
    'merchantProductId',
    'createdAt',
    'merchantCustomerId',
  ],
  MerchantCoupon: ['id', 'identifier', 'status', 'merchantAccountId', 'percentageDiscount', 'type'],
  MerchantCustomer: ['id', 'userId', 'merchantAccountId', 'identifier', 'createdAt', 'status'],
  MerchantPrice: ['id', 'merchantAccountId', 'merchantProductId', 'status', 'identifier', 'createdAt', 'priceId'],
  MerchantProduct: ['id', 'merchantAccountId', 'productId', 'status', 'identifier', 'createdAt'],
  MerchantSession: ['id', 'identifier', 'merchantAccountId'],
  Price: ['id', 'productId', 'nickname', 'status', 'unitAmount', 'createdAt'],
  Product: ['id', 'name', 'productType', 'key', 'createdAt', 'status', 'quantityAvailable'],
  ProductRevenueSplit: ['id', 'type', 'productId', 'percent', 'userId', 'createdAt'],
  UpgradableProducts: ['upgradableToId', 'upgradableFromId'],
  Purchase: [
    'id',
    'userId',
    'createdAt',
    'totalAmount',
    'ip_address',
    'city',
    'state',
    'country',
    'couponId',
    'bulkCouponId',
    'redeemedBulkCouponId',
    'productId',
    'merchantChargeId',
    'merchantSessionId',
    'upgradedFromId',
    'status',
  ],
  Session: ['id', 'sessionToken', 'userId', 'expires'],
  User: ['id', 'name', 'email', 'emailVerified', 'image', 'roles', 'fields'],
  UserPrefs: ['id', 'userId', 'type', 'fields', 'createdAt', 'updatedAt'],
  VerificationToken: ['token', 'identifier', 'expires', 'createdAt'],
  DeviceVerification: ['deviceCode', 'userCode', 'expires', 'createdAt', 'verifiedAt', 'verifiedByUserId'],
  DeviceAccessToken: ['token', 'createdAt', 'userId'],
  PurchaseUserTransfer: [
    'id',
    'transferState',
    'purchaseId',
    'sourceUserId',
    'targetUserId',
    'createdAt',
    'expiresAt',
    'canceledAt',
    'confirmedAt',
    'completedAt',
  ],
  Bookmark: ['id', 'userId', 'resourceId', 'type', 'fields', 'createdAt', 'updatedAt'],
};

const snake = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

/** Entity → table: snake_case plural, except the uncountable/already-plural ones. */
function tableOf(entity: string): string {
  const base = snake(entity);
  if (base.endsWith('progress') || base.endsWith('products') || base.endsWith('prefs')) return base;
  return `${base}s`;
}

describe('schema', () => {
  const database = useTestDatabase();

  async function columns(): Promise<Map<string, Map<string, { dataType: string; nullable: boolean }>>> {
    const rows = await database()
      .db('information_schema.columns')
      .where('table_schema', 'public')
      .select('table_name', 'column_name', 'data_type', 'is_nullable');
    const byTable = new Map<string, Map<string, { dataType: string; nullable: boolean }>>();
    for (const row of rows) {
      const table = byTable.get(row.tableName) ?? new Map();
      table.set(row.columnName, { dataType: row.dataType, nullable: row.isNullable === 'YES' });
      byTable.set(row.tableName, table);
    }
    return byTable;
  }

  it('has a table for every entity of the data model, with every field', async () => {
    const tables = await columns();
    const missing: string[] = [];
    for (const [entity, fields] of Object.entries(SEED_ENTITIES)) {
      const table = tables.get(tableOf(entity));
      if (!table) {
        missing.push(`table ${tableOf(entity)} (${entity})`);
        continue;
      }
      for (const field of fields) if (!table.has(snake(field))) missing.push(`${tableOf(entity)}.${snake(field)}`);
    }
    expect(missing).toEqual([]);
  });

  it('adds the product ↔ content link table and the audit log', async () => {
    const tables = await columns();
    expect([...(tables.get('product_content_resources')?.keys() ?? [])]).toEqual(
      expect.arrayContaining(['product_id', 'resource_id', 'position']),
    );
    expect([...(tables.get('audit_logs')?.keys() ?? [])]).toEqual(
      expect.arrayContaining(['actor_id', 'action', 'resource', 'record_id', 'before', 'after', 'created_at']),
    );
  });

  it('keeps money in integer cents, percentages as numeric(5,4) and times as timestamptz', async () => {
    const tables = await columns();
    for (const [table, column] of [
      ['prices', 'unit_amount'],
      ['purchases', 'total_amount'],
      ['merchant_charges', 'amount'],
      ['merchant_charges', 'fee'],
      ['merchant_charges', 'net'],
      ['merchant_charges', 'refund_amount'],
    ] as const) {
      expect(tables.get(table)?.get(column)?.dataType, `${table}.${column}`).toBe('integer');
    }
    const numeric = await database()
      .db('information_schema.columns')
      .where({ table_schema: 'public', data_type: 'numeric' })
      .select('table_name', 'column_name', 'numeric_precision', 'numeric_scale');
    expect(numeric.map((c) => `${c.tableName}.${c.columnName}:${c.numericPrecision},${c.numericScale}`).sort()).toEqual(
      [
        'checkouts.tax_rate_bp:5,1',
        'coupons.percentage_discount:5,4',
        'invoices.tax_rate_bp:5,1',
        'merchant_charges.tax_rate_bp:5,1',
        'merchant_coupons.percentage_discount:5,4',
        'product_revenue_splits.percent:5,4',
        'tax_daily_documents.tax_rate_bp:5,1',
        'tax_rates.rate_bp:5,1',
      ],
    );
    const naiveTimes = [...tables.entries()].flatMap(([table, cols]) =>
      [...cols.entries()]
        .filter(([, c]) => c.dataType === 'timestamp without time zone')
        .map(([name]) => `${table}.${name}`),
    );
    expect(naiveTimes).toEqual([]);
    const jsonColumns = [...tables.entries()].flatMap(([table, cols]) =>
      [...cols.entries()].filter(([, c]) => c.dataType.startsWith('json')).map(([name]) => `${table}.${name}`),
    );
    // Open fields/metadata/context only (the audit log keeps before/after snapshots of any record), the files an
    // outbox email carries (a calendar invite), a saved pricing scenario's query and the quotes it compares, a
    // console list's saved filters (the list's own filter and sort, checked by the list's parser when saved), and the
    // email a refund the provider holds pending sends once it succeeds (an outbox email, written as one), and an
    // issued invoice's seller, buyer and lines (a document as it was issued, never rewritten), and the tax line the
    // built-in test provider's payment page shows (the processor's own copy of what it was asked to charge), and a
    // closed month's figures (frozen per currency at its close, never rewritten), and a quiz attempt's answers and
    // grade (kept as they were sent and graded).
    expect(
      jsonColumns.filter(
        (c) =>
          !/\.(fields|metadata|context|before|after)$/.test(c) &&
          c !== 'outbox_emails.attachments' &&
          c !== 'merchant_refunds.email_on_success' &&
          !/^invoices\.(seller|buyer|lines)$/.test(c) &&
          c !== 'test_provider_sessions.tax' &&
          c !== 'month_closes.figures' &&
          !/^quiz_attempts\.(answers|results)$/.test(c) &&
          !/^pricing_scenarios\.(input|expected|last_actual)$/.test(c) &&
          !/^saved_filters\.(filter|sort)$/.test(c),
      ),
    ).toEqual([]);
  });

  it('has an Objection model for every table', async () => {
    const tables = new Set((await columns()).keys());
    tables.delete('knex_migrations');
    tables.delete('knex_migrations_lock');
    tables.delete('seed_runs');
    // Derived figures the database keeps itself (triggers on the ledger, charges, purchases, invoices and progress,
    // and the first open month a month's close leaves; search's documents, from content and products): the app only
    // reads them, in SQL, and never writes a row, so they have no model to go through.
    for (const t of [...tables])
      if (
        /^(finance_(hourly|daily|monthly)_|finance_closed_through$|tax_daily_|learner_last_active|search_documents$)/.test(
          t,
        )
      )
        tables.delete(t);
    const modelTables = new Set(Object.values(models).map((m) => snake(m.tableName)));
    expect([...tables].filter((t) => !modelTables.has(t)).sort()).toEqual([]);
  });
});

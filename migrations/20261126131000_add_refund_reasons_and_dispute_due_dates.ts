import type { Knex } from 'knex';
import { inList } from './helpers';

// The refund reasons as they stand today (api/src/shared/refund-reasons.ts); a migration keeps its own copy.
const REASONS = [
  'customer-request',
  'duplicate',
  'fraudulent',
  'not-as-described',
  'technical-problem',
  'bought-by-mistake',
  'other',
  'not-fulfilled',
  'provider',
];

/**
 * Structured refund reasons and the provider's evidence due date of a dispute. Expand only: the free-text reason
 * stays as the staff's note (no longer required when the code says enough); refunds made before codes existed
 * keep a null code ("not recorded"), except the automatic refunds of payments that could not be fulfilled, which
 * are recognised by their key.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('merchant_refunds', (t) => {
    t.text('reason_code');
    t.text('reason').nullable().alter();
    t.index('created_at');
    t.check(`reason_code IN (${inList(REASONS)})`, [], 'merchant_refunds_reason_code_known');
    // "Other" says nothing by itself: its note is required.
    t.check(
      `reason_code IS DISTINCT FROM 'other' OR char_length(btrim(reason)) >= 3`,
      [],
      'merchant_refunds_other_has_note',
    );
  });
  await knex('merchant_refunds').whereLike('idempotency_key', 'sold-out-%').update({ reason_code: 'not-fulfilled' });

  await knex.schema.alterTable('merchant_disputes', (t) => {
    // Stripe's evidence_details.due_by: after it, the dispute is decided without our evidence.
    t.timestamp('evidence_due_by', { useTz: true });
    t.index(['status', 'evidence_due_by']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('merchant_disputes', (t) => {
    t.dropIndex(['status', 'evidence_due_by']);
    t.dropColumn('evidence_due_by');
  });
  await knex('merchant_refunds').whereNull('reason').update({ reason: '' });
  await knex.schema.alterTable('merchant_refunds', (t) => {
    t.dropChecks(['merchant_refunds_reason_code_known', 'merchant_refunds_other_has_note']);
    t.dropIndex('created_at');
    t.dropColumn('reason_code');
    t.text('reason').notNullable().alter();
  });
}

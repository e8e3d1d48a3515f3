import type { Knex } from 'knex';
import { createIndexConcurrently, dropIndexConcurrently } from './concurrent-index';

// Built concurrently: each table stays writable while its index builds (outside a transaction, as that requires).
export const config = { transaction: false };

/**
 * Console lists filtered by one value of a large table, newest first: a lesson's progress (or a module's, its
 * lessons'), one provider account's refunds and one country's purchases. Without the pair the planner walks the date index and filters every
 * row, which for a rare lesson or account reads the whole table.
 */
const INDEXES: readonly [name: string, definition: string][] = [
  ['lesson_progress_lesson_by_update', 'lesson_progress (lesson_id, updated_at)'],
  ['merchant_refunds_account_by_date', 'merchant_refunds (merchant_account_id, created_at)'],
  // Purchases from one country newest first: a small country's few among a million.
  ['purchases_country_by_date', 'purchases (country, created_at)'],
];

export async function up(knex: Knex): Promise<void> {
  for (const [name, definition] of INDEXES) await createIndexConcurrently(knex, name, definition);
}

export async function down(knex: Knex): Promise<void> {
  for (const [name] of [...INDEXES].reverse()) await dropIndexConcurrently(knex, name);
}

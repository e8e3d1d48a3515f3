import type { Knex } from 'knex';
import { createIndexConcurrently, dropIndexConcurrently } from './concurrent-index';

// Built concurrently: each table stays writable while its indexes build (outside a transaction, as that requires).
// On a large production table each takes minutes; a run cut short can simply be started again (an index its build
// left invalid is dropped and built again, ./concurrent-index.ts).
export const config = { transaction: false };

/**
 * Every order and filter a console list offers, read from an index: a list's page is its first rows in that
 * order, never a sort of the whole table (tests/api/console-sort-plans.test.ts holds it). A field whose values
 * repeat (a status, an amount) is indexed with the id after it, the list's tie-break, so its rows come fully
 * ordered; an instant or a name repeats too seldom to need it.
 */
const INDEXES: readonly [name: string, definition: string][] = [
  ['waitlist_entries_email', 'waitlist_entries (email)'],
  ['waitlist_entries_notified_at', 'waitlist_entries (notified_at)'],
  ['merchant_customers_created_at', 'merchant_customers (created_at)'],
  ['merchant_customers_status_id', 'merchant_customers (status, id)'],
  ['merchant_sessions_created_at', 'merchant_sessions (created_at)'],
  ['merchant_sessions_status_id', 'merchant_sessions (status, id)'],
  ['merchant_charges_status_id', 'merchant_charges (status, id)'],
  ['merchant_charges_amount_id', 'merchant_charges (amount, id)'],
  ['merchant_charges_refund_amount_id', 'merchant_charges (refund_amount, id)'],
  ['merchant_charges_net_id', 'merchant_charges (net, id)'],
  ['merchant_refunds_amount_id', 'merchant_refunds (amount, id)'],
  ['merchant_refunds_reason_code_id', 'merchant_refunds (reason_code, id)'],
  ['merchant_refunds_requested_by_date', 'merchant_refunds (requested_by_id, created_at)'],
  ['coupons_created_at', 'coupons (created_at)'],
  ['coupons_code', 'coupons (code)'],
  ['coupons_expires', 'coupons (expires)'],
  ['coupons_percentage_discount_id', 'coupons (percentage_discount, id)'],
  ['coupons_used_count_id', 'coupons (used_count, id)'],
  ['coupons_max_uses_id', 'coupons (max_uses, id)'],
  ['purchases_total_amount_id', 'purchases (total_amount, id)'],
  ['purchases_status_id', 'purchases (status, id)'],
  ['purchase_user_transfers_created_at', 'purchase_user_transfers (created_at)'],
  ['purchase_user_transfers_expires_at', 'purchase_user_transfers (expires_at)'],
  ['purchase_user_transfers_state_id', 'purchase_user_transfers (transfer_state, id)'],
  ['invoices_total_id', 'invoices (total, id)'],
  ['invoices_kind_id', 'invoices (kind, id)'],
  ['invoices_purchase_by_date', 'invoices (purchase_id, issued_at)'],
  ['invoices_invoice_by_date', 'invoices (invoice_id, issued_at)'],
  ['invoices_corrects_by_date', 'invoices (corrects_id, issued_at)'],
  ['invoices_currency_by_date', 'invoices (currency, issued_at)'],
  ['invoices_tax_country_by_date', 'invoices (tax_country, issued_at)'],
  ['users_email', 'users (email)'],
  ['users_name', 'users (name)'],
  ['sessions_last_seen_at', 'sessions (last_seen_at)'],
  ['verification_tokens_created_at', 'verification_tokens (created_at)'],
  ['device_verifications_created_at', 'device_verifications (created_at)'],
  ['device_verifications_client_by_date', 'device_verifications (client_id, created_at)'],
  ['device_verifications_verifier_by_date', 'device_verifications (verified_by_user_id, created_at)'],
  ['device_access_tokens_created_at', 'device_access_tokens (created_at)'],
  ['device_access_tokens_last_used_at', 'device_access_tokens (last_used_at)'],
  ['device_access_tokens_client_by_date', 'device_access_tokens (client_id, created_at)'],
  ['user_prefs_created_at', 'user_prefs (created_at)'],
  ['user_prefs_updated_at', 'user_prefs (updated_at)'],
  ['outbox_emails_status_id', 'outbox_emails (status, id)'],
  ['outbox_emails_attempts_id', 'outbox_emails (attempts, id)'],
  ['lesson_progress_completed_at', 'lesson_progress (completed_at)'],
  ['lesson_progress_created_at', 'lesson_progress (created_at)'],
  ['lesson_progress_section_by_update', 'lesson_progress (section_id, updated_at)'],
  ['comments_updated_at', 'comments (updated_at)'],
  ['comments_hidden_at', 'comments (hidden_at)'],
  ['bookmarks_created_at', 'bookmarks (created_at)'],
  ['certificates_issued_at', 'certificates (issued_at)'],
  ['certificates_revoked_at', 'certificates (revoked_at)'],
  ['certificates_learner_name', 'certificates (learner_name)'],
  ['certificates_course_title', 'certificates (course_title)'],
];

export async function up(knex: Knex): Promise<void> {
  for (const [name, definition] of INDEXES) {
    await createIndexConcurrently(knex, name, definition);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const [name] of [...INDEXES].reverse()) {
    await dropIndexConcurrently(knex, name);
  }
}

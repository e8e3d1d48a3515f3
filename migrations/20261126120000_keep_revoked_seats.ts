import type { Knex } from 'knex';
import { inList } from './helpers';

const STATUSES_BEFORE = ['Valid', 'Restricted', 'Refunded', 'Disputed', 'Banned'];
const STATUSES = [...STATUSES_BEFORE, 'Revoked'];

/**
 * A revoked team seat is kept, marked `Revoked`, instead of deleted: the audit log and the member's history keep
 * pointing at it. One seat per person and team is now a rule over the seats that grant access, so a member let
 * back in takes a new seat beside the ended one (a seat ended by a refund or a ban no longer blocks that either).
 * Expand only: code that never writes `Revoked` runs on it unchanged.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE purchases DROP CONSTRAINT purchases_status_known');
  await knex.raw(`ALTER TABLE purchases ADD CONSTRAINT purchases_status_known CHECK (status IN (${inList(STATUSES)}))`);
  await knex.raw(
    `CREATE UNIQUE INDEX purchases_one_live_seat_per_user ON purchases (user_id, redeemed_bulk_coupon_id)
      WHERE redeemed_bulk_coupon_id IS NOT NULL AND status IN ('Valid', 'Restricted')`,
  );
  await knex.raw('DROP INDEX purchases_one_seat_per_user');
}

export async function down(knex: Knex): Promise<void> {
  const revoked = knex('purchases').where({ status: 'Revoked' }).select('id');
  await knex('purchase_user_transfers').whereIn('purchase_id', revoked).delete();
  await knex('purchases').where({ status: 'Revoked' }).delete();
  await knex.raw(
    'CREATE UNIQUE INDEX purchases_one_seat_per_user ON purchases (user_id, redeemed_bulk_coupon_id) WHERE redeemed_bulk_coupon_id IS NOT NULL',
  );
  await knex.raw('DROP INDEX purchases_one_live_seat_per_user');
  await knex.raw('ALTER TABLE purchases DROP CONSTRAINT purchases_status_known');
  await knex.raw(
    `ALTER TABLE purchases ADD CONSTRAINT purchases_status_known CHECK (status IN (${inList(STATUSES_BEFORE)}))`,
  );
}

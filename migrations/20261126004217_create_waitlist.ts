import type { Knex } from 'knex';
import { inList } from './helpers';

// Spelled out here, not imported: a landed migration must not change meaning when the code does.
const CLOSED_REASONS = ['sold-out', 'not-open', 'closed', 'not-on-sale', 'unavailable'];

/**
 * Waitlists for products that cannot be bought (sold out, enrollment closed or not open yet, not on sale yet):
 * who waits for which product, and, per product, whether it was last seen open and how many times it opened. Each
 * opening emails every waiting person once: `notified_opening` is the opening they were last emailed for, written in
 * the transaction that queues their email. Two queues: the sweep that notices openings, and one job per opening that
 * emails.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('waitlist_entries', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('product_id').notNullable().references('products.id').onDelete('CASCADE');
    t.text('email').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // When the last email went out, and for which opening of the product (0: never emailed).
    t.timestamp('notified_at', { useTz: true });
    t.integer('notified_opening').notNullable().defaultTo(0);
    t.uuid('outbox_email_id').references('outbox_emails.id').onDelete('SET NULL');
    // The hash of the leave link's token in the last email (the email carries the token, the database never does).
    t.text('leave_token_hash');
    t.check('email = lower(email) AND length(email) BETWEEN 3 AND 254', [], 'waitlist_entries_email_shape');
    t.check('notified_opening >= 0', [], 'waitlist_entries_opening_not_negative');
    // Joining twice is joining once.
    t.unique(['product_id', 'email'], { indexName: 'waitlist_entries_once' });
    t.index(['product_id', 'notified_opening', 'created_at']);
    t.index('created_at');
  });

  await knex.schema.createTable('waitlist_products', (t) => {
    t.uuid('product_id').primary().references('products.id').onDelete('CASCADE');
    // Whether the sweep last found the product open (for sale, enrollment open, seats left).
    t.boolean('open').notNullable().defaultTo(false);
    // How many times it went from closed to open while people waited: the current opening's number.
    t.integer('opening').notNullable().defaultTo(0);
    // Why it could not be bought when last seen closed: what its opening email says opened.
    t.text('closed_reason').notNullable().defaultTo('sold-out');
    t.timestamp('changed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check('opening >= 0', [], 'waitlist_products_opening_not_negative');
    t.check(`closed_reason IN (${inList(CLOSED_REASONS)})`, [], 'waitlist_products_closed_reason_known');
  });

  await knex.raw(`SELECT pgboss.create_queue('waitlist-sweep', '{"policy":"standard"}'::json)`);
  await knex.raw(`SELECT pgboss.create_queue('waitlist-opening', '{"policy":"standard"}'::json)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`SELECT pgboss.delete_queue('waitlist-opening')`);
  await knex.raw(`SELECT pgboss.delete_queue('waitlist-sweep')`);
  await knex.schema.dropTable('waitlist_products');
  await knex.schema.dropTable('waitlist_entries');
}

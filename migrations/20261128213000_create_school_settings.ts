import type { Knex } from 'knex';

/**
 * The school's own settings: its name and brand, how to reach it and its legal texts. One row (id 1), so every
 * replica reads the same; a fresh install starts with a neutral name the administrator (or the demo data) changes.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('school_settings', (t) => {
    t.smallint('id').primary().defaultTo(1);
    t.text('name').notNullable();
    t.text('legal_name').notNullable().defaultTo('');
    t.text('address').notNullable().defaultTo('');
    t.text('support_email');
    t.text('logo_key');
    t.text('accent_color').notNullable().defaultTo('#1d4ed8');
    t.text('terms_html').notNullable().defaultTo('');
    t.text('privacy_html').notNullable().defaultTo('');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check('id = 1', [], 'school_settings_one_row');
    t.check(`char_length(name) BETWEEN 1 AND 90`, [], 'school_settings_name_length');
    t.check(`accent_color ~ '^#[0-9a-f]{6}$'`, [], 'school_settings_accent_color_hex');
  });
  await knex('school_settings').insert({ id: 1, name: 'Courses' });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('school_settings');
}

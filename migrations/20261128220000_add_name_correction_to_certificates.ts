import type { Knex } from 'knex';

/**
 * A certificate keeps the name it was issued with: a later display-name change no longer renames it. The holder may
 * correct it once (holder_corrected_at), support at any time; the verification page says when it was last corrected
 * (name_corrected_at). Existing certificates take their holder's name as it is now, the name they showed until today.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    UPDATE certificates c SET learner_name = coalesce(u.name, split_part(u.email, '@', 1)) FROM users u
     WHERE u.id = c.user_id AND c.learner_name IS DISTINCT FROM coalesce(u.name, split_part(u.email, '@', 1))`);
  await knex.schema.alterTable('certificates', (t) => {
    t.timestamp('name_corrected_at', { useTz: true });
    t.uuid('name_corrected_by_id').references('users.id').onDelete('SET NULL');
    t.timestamp('holder_corrected_at', { useTz: true });
    t.check(
      'holder_corrected_at IS NULL OR name_corrected_at >= holder_corrected_at',
      [],
      'certificates_holder_correction_dated',
    );
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('certificates', (t) => {
    t.dropChecks(['certificates_holder_correction_dated']);
    t.dropColumn('holder_corrected_at');
    t.dropColumn('name_corrected_by_id');
    t.dropColumn('name_corrected_at');
  });
}

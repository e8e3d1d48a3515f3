import type { Knex } from 'knex';
import { defaultName } from '../api/src/shared/shown-name';

/**
 * 20261128220000 froze existing certificates of learners without a display name under their email's local part,
 * on a page anyone may read. Those certificates (the name never corrected since) take the name such a learner is
 * shown by instead, "Learner 4F2A" (shared/shown-name.ts), as certificates issued since carry.
 */
export async function up(knex: Knex): Promise<void> {
  const emailed: { id: string; userId: string }[] = await knex('certificates as c')
    .join('users as u', 'u.id', 'c.userId')
    .whereNull('c.nameCorrectedAt')
    .whereRaw(`coalesce(btrim(u.name), '') = ''`)
    .whereRaw(`c.learner_name = split_part(u.email, '@', 1)`)
    .select('c.id', 'c.userId');
  for (const { id, userId } of emailed) {
    await knex('certificates')
      .where({ id })
      .update({ learnerName: defaultName(userId) });
  }
}

/** Nothing to undo: the email's local part is not put back on a public page. */
export async function down(): Promise<void> {}

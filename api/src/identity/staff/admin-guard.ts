import type { Knex } from 'knex';
import { AppError } from '../../shared/errors';

/** One lock for every change that could remove an administrator (held to the end of the transaction). */
const ADMIN_CHANGES_LOCK = 727_001;

/**
 * Refuses a change that would leave no administrator. Changes that could remove one queue on a
 * transaction-scoped advisory lock, and each counts after the previous one committed, so two admins
 * demoting each other at once end with the second refused (and no deadlock on the user rows).
 */
export async function assertAnotherAdminRemains(trx: Knex.Transaction, userId: string): Promise<void> {
  await trx.raw('SELECT pg_advisory_xact_lock(?)', [ADMIN_CHANGES_LOCK]);
  const others = await trx('users').whereRaw("'admin' = ANY(roles)").whereNot('id', userId).first('id');
  if (!others) {
    throw new AppError(
      'validation-failed',
      'This is the last administrator; make someone else an administrator first.',
      {
        roles: 'the last administrator cannot lose the role',
      },
    );
  }
}

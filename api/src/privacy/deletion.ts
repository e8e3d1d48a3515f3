import { recordAudit, type Actor } from '../audit/record';
import type { Clock } from '../clock';
import type { Db } from '../db/connection';
import type { Sessions } from '../identity/sign-in/sessions';
import type { JobQueue } from '../jobs/queue';
import type { Logger } from '../logger';
import type { PaymentProvider } from '../payments/provider';
import { AppError } from '../shared/errors';
import { isStaffAccount } from '../shared/roles';
import { anonymiseSales, cancelTransfers, freeSeats, lockCheckouts } from './erase-commerce';
import { deletedAddress } from '../shared/deleted-account';
import { endAccess, eraseAccountRow, eraseContact, eraseLearning } from './erase-person';
import type { AccountDeleted } from './schemas';

export interface DeletionDeps {
  db: Db;
  clock: Clock;
  jobs: Pick<JobQueue, 'add' | 'wake'>;
  sessions: Pick<Sessions, 'forget'>;
  /** The job that removes an image nothing points to any more (the avatar, once no record uses it). */
  deleteImageJob: string;
  /** After commit: the read caches forget the person as they were. */
  changed: () => void;
  /** The payment provider keeps a customer per buyer: its copy of the email goes too. */
  provider: Pick<PaymentProvider, 'updateCustomerEmail'>;
  logger: Logger;
}

/** Who asks: the person themselves from the storefront, or support from the console. */
export interface DeletionRequest {
  actor: Actor & { id: string };
  requestId: string | null;
}

/**
 * Deletes a person's account (docs/domain.md §16) in one transaction: every sign-in ends, their personal data is
 * erased or anonymised, and what finance must keep stays without their identity. `confirm` is the account's email,
 * typed again (any case). Staff accounts are refused: an administrator first takes their roles away, which also
 * keeps the last administrator. The audit entry holds counts and dates, never the person's data.
 */
export async function deleteAccount(
  { db, clock, jobs, sessions, deleteImageJob, changed, provider, logger }: DeletionDeps,
  userId: string,
  confirm: string,
  { actor, requestId }: DeletionRequest,
): Promise<AccountDeleted> {
  const { answer, hashes, avatarKey, customers } = await db.transaction(async (trx) => {
    // Lock order, so no deadlock: the person's checkouts (a settlement locks its checkout, then share-locks its
    // buyer), then their linked accounts (a GitHub sign-in and an email change lock those before the person), then
    // the person. Their address is read unlocked to find the checkouts, and must not have changed under the lock.
    const known = await trx('users').where({ id: userId }).first('email');
    if (!known) throw new AppError('not-found', `No users record with id ${userId}.`);
    await lockCheckouts(trx, userId, known.email);
    await trx('accounts').where({ userId }).orderBy('id').forUpdate().select('id');
    // No key update: a team change or transfer racing this one checks its foreign keys to the row (a key share) and
    // goes on, so it never waits on this lock while holding a coupon or purchase this deletion waits for.
    const user = await trx('users').where({ id: userId }).forNoKeyUpdate().first();
    if (user.deletedAt) throw new AppError('account-deleted', 'This account was already deleted.');
    if (user.email !== known.email)
      throw new AppError('conflict', 'The account’s email address changed meanwhile: try again.');
    if (isStaffAccount(user.roles)) {
      throw new AppError(
        'account-is-staff',
        'Staff accounts cannot be deleted: an administrator removes their staff roles first.',
      );
    }
    // Erasing the row would free the address, and a block is kept by it (§6.2): support lifts the block first.
    if (user.blockedAt) {
      throw new AppError(
        'account-is-blocked',
        'A blocked account cannot be deleted: its block keeps the address out. Support lifts the block first.',
      );
    }
    if (confirm.trim().toLowerCase() !== String(user.email).toLowerCase()) {
      throw new AppError('confirmation-mismatch', 'Type the account’s email address exactly to confirm.', {
        confirm: 'does not match the account’s email address',
      });
    }
    const email: string = user.email;
    const placeholder = deletedAddress(userId);
    const step = { trx, userId, email, placeholder, actor, requestId };
    const deletedAt = clock.now();

    const signedOut = await endAccess(trx, userId, email);
    const seatsFreed = await freeSeats(step);
    const transfersCanceled = await cancelTransfers(step);
    await anonymiseSales(step);
    const learning = await eraseLearning(trx, userId);
    const contact = await eraseContact(trx, email, placeholder);
    await eraseAccountRow(trx, userId, deletedAt);
    if (user.avatarKey) await jobs.add(trx, deleteImageJob, { key: user.avatarKey });

    const answer: AccountDeleted = {
      id: userId,
      deletedAt,
      sessionsEnded: signedOut.hashes.length,
      deviceTokensRevoked: signedOut.devices,
      seatsFreed,
      transfersCanceled,
      ...learning,
      ...contact,
    };
    const { id: _id, ...counts } = answer;
    await recordAudit(trx, {
      actor,
      requestId,
      action: 'user.deleted',
      resource: 'users',
      recordId: userId,
      before: { deletedAt: null },
      after: { ...counts, by: actor.id === userId ? 'the person' : 'staff' },
    });
    const customers: string[] = await trx('merchantCustomers').where({ userId }).pluck('identifier');
    return { answer, hashes: signedOut.hashes, avatarKey: user.avatarKey as string | null, customers };
  });
  sessions.forget(hashes); // after commit: a request meanwhile cannot cache a session again
  if (avatarKey) jobs.wake(deleteImageJob);
  changed();
  // Ours is the record of truth; the provider's copy only addresses its receipts, so a failure is logged.
  for (const identifier of customers) {
    await provider
      .updateCustomerEmail(identifier, deletedAddress(userId))
      .catch((error: unknown) => logger.warn({ err: error, identifier }, 'erasing the provider customer email failed'));
  }
  return answer;
}

import type { Db } from '../../db/connection';
import { AppError } from '../../shared/errors';
import type { DeviceVerification, User } from '../models';
import { networkOf, type RateLimiter } from '../rate-limit';
import type { PendingDevice } from '../schemas';
import { clientName, type DeviceFlowDeps, formatUserCode, normalizeUserCode, WRONG_CODE_LIMIT } from './device-codes';

/** A code as a signed-in person enters it on the /activate page. */
export interface CodeEntry {
  userCode: string;
  user: User;
  ip: string;
}

/**
 * Every code entry is counted against the person's and the address's limits before the code is looked at, so
 * parallel guesses cannot all pass the limit before the first is counted. An entry that names a real code (one a
 * device asked for) is given back: only wrong codes use up the limit.
 */
async function countEntry(limiter: RateLimiter, userId: string, ip: string): Promise<() => Promise<void>> {
  const perUser = await limiter.hit({ bucket: `device-code:user:${userId}`, ...WRONG_CODE_LIMIT }, 'wrong codes');
  const perIp = await limiter.hit({ bucket: `device-code:ip:${networkOf(ip)}`, ...WRONG_CODE_LIMIT }, 'wrong codes');
  return async () => {
    await perUser.giveBack();
    await perIp.giveBack();
  };
}

/** Why a code could not be shown or decided on: no such code (a wrong entry, left counted), or used, or expired. */
function unusable(row: DeviceVerification | undefined): AppError {
  if (!row)
    return new AppError(
      'device-code-not-found',
      'No device is waiting for that code. Check the code your device shows.',
    );
  if (row.verifiedAt || row.deniedAt)
    return new AppError('device-code-already-used', 'That code was already approved or denied.');
  return new AppError('device-code-expired', 'That code has expired. Start the sign-in on your device again.');
}

const findCode = (db: Db, code: string | null) =>
  code
    ? (db('deviceVerifications').where({ userCode: code }).first() as Promise<DeviceVerification | undefined>)
    : Promise.resolve(undefined);

/** What the /activate page shows before the person approves or denies: the client's registered name. */
export async function lookupCode({ db, clock, limiter }: DeviceFlowDeps, input: CodeEntry): Promise<PendingDevice> {
  const giveBack = await countEntry(limiter, input.user.id, input.ip);
  const row = await findCode(db, normalizeUserCode(input.userCode));
  if (row) await giveBack();
  if (!row || row.verifiedAt || row.deniedAt || row.expires <= clock.now()) throw unusable(row);
  return {
    userCode: formatUserCode(row.userCode),
    clientId: row.clientId,
    clientName: (await clientName(db, row.clientId)) ?? 'An unregistered app',
    createdAt: row.createdAt,
    expiresAt: row.expires,
  };
}

/** Approve or deny: one conditional update, so two tabs cannot both decide. */
export async function decideCode(
  { db, clock, limiter }: DeviceFlowDeps,
  input: CodeEntry,
  decision: 'approve' | 'deny',
): Promise<void> {
  const giveBack = await countEntry(limiter, input.user.id, input.ip);
  const code = normalizeUserCode(input.userCode);
  const patch =
    decision === 'approve'
      ? { verifiedAt: clock.now(), verifiedByUserId: input.user.id }
      : { deniedAt: clock.now(), verifiedByUserId: input.user.id };
  const updated = code
    ? await db('deviceVerifications')
        .update(patch)
        .where({ userCode: code })
        .whereNull('verifiedAt')
        .whereNull('deniedAt')
        .where('expires', '>', clock.now())
    : 0;
  if (updated) {
    // An approved device is a sign-in of its own, kept for the person's timeline.
    if (decision === 'approve') await db('signIns').insert({ userId: input.user.id, method: 'device' });
    return giveBack();
  }
  const row = await findCode(db, code);
  if (row) await giveBack();
  throw unusable(row);
}

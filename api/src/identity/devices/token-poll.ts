import type { DeviceVerification } from '../models';
import { hashSecret, newSecret } from '../secrets';
import { isUserBlocked } from '../staff/blocks';
import type { DeviceFlowDeps } from './device-codes';

/** The RFC 8628 / RFC 6749 §5.2 error codes of the token endpoint. */
export type TokenError =
  'authorization_pending' | 'slow_down' | 'access_denied' | 'expired_token' | 'invalid_grant' | 'invalid_request';

type PollResult = { accessToken: string } | { error: TokenError; description: string };

/**
 * One poll of the token endpoint. The row is locked so concurrent polls are ordered; the pace and the issued token
 * are committed before the answer, and the token goes out exactly once.
 */
export function poll({ db, clock }: DeviceFlowDeps, input: { deviceCode: string; clientId: string }) {
  return db.transaction(async (trx): Promise<PollResult> => {
    const row: DeviceVerification | undefined = await trx('deviceVerifications')
      .where({ deviceCode: hashSecret(input.deviceCode) })
      .forUpdate()
      .first();
    if (!row || row.clientId !== input.clientId) return { error: 'invalid_grant', description: 'Unknown device code.' };
    const at = clock.now();
    if (row.tokenIssuedAt)
      return { error: 'invalid_grant', description: 'The token for this code was already issued.' };
    if (row.expires <= at) return { error: 'expired_token', description: 'The device code expired; start again.' };
    if (row.deniedAt) return { error: 'access_denied', description: 'The user denied the request.' };
    if (row.lastPolledAt && at.getTime() - row.lastPolledAt.getTime() < row.intervalSeconds * 1000) {
      const interval = row.intervalSeconds + 5;
      await trx('deviceVerifications')
        .where({ deviceCode: row.deviceCode })
        .update({ lastPolledAt: at, intervalSeconds: interval });
      return { error: 'slow_down', description: `Polling too fast; wait ${interval} seconds between requests.` };
    }
    if (!row.verifiedAt || !row.verifiedByUserId) {
      await trx('deviceVerifications').where({ deviceCode: row.deviceCode }).update({ lastPolledAt: at });
      return { error: 'authorization_pending', description: 'The user has not approved the request yet.' };
    }
    // Blocked since approving (the block expires approved codes too; this holds for one racing it).
    if (await isUserBlocked(trx, row.verifiedByUserId, true))
      return { error: 'access_denied', description: 'The account that approved the request is blocked.' };
    const accessToken = newSecret();
    await trx('deviceAccessTokens').insert({
      token: hashSecret(accessToken),
      userId: row.verifiedByUserId,
      clientId: row.clientId,
    });
    await trx('deviceVerifications')
      .where({ deviceCode: row.deviceCode })
      .update({ lastPolledAt: at, tokenIssuedAt: at });
    return { accessToken };
  });
}
